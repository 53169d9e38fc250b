/**
 * The journal's record of the tokens one model request used (written and summed by
 * model/session-usage.ts, which knows models and their prices).
 */
export const USAGE_EVENT = "model.usage";
