import type { Tool } from "../contracts/tools.js";
import { applyPatchTool } from "./apply-patch.js";
import { editTool } from "./edit.js";
import { globTool } from "./glob.js";
import { grepTool } from "./grep.js";
import { listTool } from "./list.js";
import { readTool } from "./read.js";
import { shellTool } from "./shell.js";
import { writeTool } from "./write.js";

/** The built-in tools, in the order the model is shown them. */
export function builtinTools(): Tool[] {
  return [readTool, listTool, globTool, grepTool, editTool, applyPatchTool, writeTool, shellTool] as unknown as Tool[];
}
