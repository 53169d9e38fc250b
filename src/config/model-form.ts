import { ConfigError } from "../errors.js";
import type { ParsedDocument } from "./jsonc.js";
import { isPlainObject } from "./keypath.js";

/**
 * `model` may be written as an object, `{ "id": "provider/model", "timeout_ms": …, "idle_ms": … }`:
 * the model and how long to wait for it, side by side. It means exactly `model` (the id) plus
 * `model_wait` (the bounds), and is read as that here, per file, before anything else sees the
 * layer — so validation, merging, trust and every reader know one shape, and each key still
 * names the line it was written on.
 */
export function expandModelForm(doc: ParsedDocument, source: string): ParsedDocument {
  const data = doc.data;
  if (!isPlainObject(data) || !isPlainObject(data.model)) return doc;
  const { id, ...bounds } = data.model;
  const hasBounds = Object.keys(bounds).length > 0;
  if (hasBounds && data.model_wait !== undefined) {
    const line = doc.lineOf(["model_wait"]);
    throw new ConfigError(
      `${source}${line ? `:${line}` : ""}: model_wait: the bounds are set twice (model.timeout_ms/idle_ms and model_wait); keep one`,
    );
  }
  const expanded: Record<string, unknown> = { ...data };
  if (id === undefined) delete expanded.model;
  else expanded.model = id;
  if (hasBounds) expanded.model_wait = bounds;
  return {
    data: expanded,
    lineOf: (path) => {
      if (path[0] === "model_wait" && hasBounds) return doc.lineOf(["model", ...path.slice(1)]);
      if (path[0] === "model" && path.length === 1) return doc.lineOf(["model", "id"]);
      return doc.lineOf(path);
    },
  };
}
