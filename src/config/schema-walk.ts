import type { z } from "zod";
import { ConfigSchema } from "./schema.js";

/** What the schema says about one key path: its node, or undefined when no such key exists. */
type Node = z.core.$ZodType;

function unwrap(node: Node): Node {
  let current = node;
  for (;;) {
    const def = current._zod.def as { type: string; innerType?: Node };
    if ((def.type === "optional" || def.type === "default" || def.type === "nullable") && def.innerType) {
      current = def.innerType;
    } else {
      return current;
    }
  }
}

export function schemaAt(path: readonly (string | number)[], root: Node = ConfigSchema): Node | undefined {
  let current: Node | undefined = unwrap(root);
  for (const segment of path) {
    if (!current) return undefined;
    const def = current._zod.def as {
      type: string;
      shape?: Record<string, Node>;
      valueType?: Node;
      element?: Node;
    };
    if (def.type === "object" && def.shape) current = def.shape[String(segment)];
    else if (def.type === "record" && def.valueType) current = def.valueType;
    else if (def.type === "array" && def.element) current = def.element;
    else return undefined;
    current = current ? unwrap(current) : undefined;
  }
  return current;
}

/** The fixed keys an object at `path` accepts (empty for records, whose keys are free). */
export function knownKeysAt(path: readonly (string | number)[]): string[] {
  const node = schemaAt(path);
  const def = node?._zod.def as { type: string; shape?: Record<string, Node> } | undefined;
  return def?.type === "object" && def.shape ? Object.keys(def.shape) : [];
}

/** Every leaf key path the schema declares, with `*` standing for a free record key. */
export function allKnownKeys(node: Node = ConfigSchema, prefix: string[] = []): string[][] {
  const def = unwrap(node)._zod.def as {
    type: string;
    shape?: Record<string, Node>;
    valueType?: Node;
  };
  if (def.type === "object" && def.shape) {
    return Object.entries(def.shape).flatMap(([key, child]) => allKnownKeys(child, [...prefix, key]));
  }
  if (def.type === "record" && def.valueType) return allKnownKeys(def.valueType, [...prefix, "*"]);
  return [prefix];
}

export function typeName(node: Node | undefined): string {
  if (!node) return "unknown";
  const def = node._zod.def as { type: string; check?: string };
  if (def.type === "object" || def.type === "record") return "object";
  return def.type;
}

/** The description written for a key, wherever in its optional/default wrappers it sits. */
export function descriptionAt(path: readonly (string | number)[]): string | undefined {
  const parent = schemaAt(path.slice(0, -1));
  const def = parent?._zod.def as { type: string; shape?: Record<string, Node>; valueType?: Node } | undefined;
  const last = path[path.length - 1];
  let node: Node | undefined =
    def?.type === "object" ? def.shape?.[String(last)] : def?.type === "record" ? def.valueType : undefined;
  while (node) {
    const described = (node as { description?: string }).description;
    if (described) return described;
    node = (node._zod.def as { innerType?: Node }).innerType;
  }
  return undefined;
}
