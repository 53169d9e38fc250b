import type { ModelInfo } from "./catalog.js";

/** How a model takes tools, from its `tools` (config or catalog): true/"native", "text", false/"none". */
export type ToolMode = "native" | "text" | "none";

/**
 * The mode, and whether "native" was said explicitly (the string): only then is an answer's text
 * never read as calls (call/text/shim.ts detects calls written as text otherwise).
 */
export function toolModeOf(info: Pick<ModelInfo, "tools">): { mode: ToolMode; explicit: boolean } {
  const tools = info.tools;
  if (tools === false || tools === "none") return { mode: "none", explicit: true };
  if (tools === "text") return { mode: "text", explicit: true };
  return { mode: "native", explicit: tools === "native" };
}
