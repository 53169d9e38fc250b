import type { LoadedConfig } from "../config/load.js";
import type { Answer, Reason } from "../contracts/decisions.js";
import type { ErrorClass } from "./errors.js";
import { type ResolvedModel, resolveModel } from "./resolve.js";

/** Failures another model may not share. Context overflow is compaction's job, not a fallback's. */
export const FALLBACK_CLASSES: ReadonlySet<ErrorClass> = new Set([
  "rate_limit",
  "quota",
  "server_error",
  "network",
  "timeout",
  "authentication",
]);

/**
 * Seat `model.fallback`. Only the config `fallback` list can move a run to another model, in its
 * order, skipping models already tried and entries that do not resolve (each skip is a reason).
 * No list, or nothing left on it, means the failure stands.
 */
export function decideFallback(input: {
  failed: string;
  errorClass: ErrorClass;
  config: LoadedConfig;
  tried: ReadonlySet<string>;
  env?: NodeJS.ProcessEnv;
}): Answer<string | null> & { resolved?: ResolvedModel } {
  const origin = input.config.origins.get("fallback");
  const list = input.config.config.fallback ?? [];
  const reasons: Reason[] = [{ rule: "failed model", detail: `${input.failed}: ${input.errorClass}` }];
  if (!FALLBACK_CLASSES.has(input.errorClass)) {
    reasons.push({
      rule: "error class",
      detail: `${input.errorClass} is not a failure another model would avoid`,
      decisive: true,
    });
    return { holder: "config", answer: null, reasons };
  }
  if (list.length === 0) {
    reasons.push({
      rule: "no fallback list",
      detail: "config fallback is not set: the failure stands",
      decisive: true,
    });
    return { holder: "config", answer: null, reasons };
  }
  const source = origin?.file ?? origin?.source;
  for (const candidate of list) {
    if (input.tried.has(candidate)) {
      reasons.push({ rule: "fallback entry", detail: `${candidate}: already tried` });
      continue;
    }
    const resolution = resolveModel(candidate, input.config, input.env);
    if (!resolution.ok) {
      reasons.push({ rule: "fallback entry", detail: `${candidate}: ${resolution.problem}` });
      continue;
    }
    reasons.push({
      rule: "fallback entry",
      detail: candidate,
      key: "fallback",
      ...(source ? { source } : {}),
      decisive: true,
    });
    return { holder: "config", answer: candidate, reasons, resolved: resolution.model };
  }
  reasons.push({ rule: "fallback list exhausted", detail: "the failure stands", decisive: true });
  return { holder: "config", answer: null, reasons };
}
