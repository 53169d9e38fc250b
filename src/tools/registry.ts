import type { Tool } from "../contracts/tools.js";
import { applyPatchTool } from "./apply-patch.js";
import { editTool } from "./edit.js";
import { globTool } from "./glob.js";
import { grepTool } from "./grep.js";
import { listTool } from "./list.js";
import { readTool } from "./read.js";
import { shellTool } from "./shell.js";
import { shellKillTool, shellOutputTool } from "./shell-jobs.js";
import { todoTool } from "./todo.js";
import { webfetchTool } from "./webfetch.js";
import { type SearchConfig, websearchTool } from "./websearch.js";
import { writeTool } from "./write.js";

/** The built-in tools, in the order the model is shown them; websearch only offered with a backend (config web.search). */
export function builtinTools(search?: SearchConfig): Tool[] {
  return [
    readTool,
    listTool,
    globTool,
    grepTool,
    editTool,
    applyPatchTool,
    writeTool,
    shellTool,
    shellOutputTool,
    shellKillTool,
    todoTool,
    webfetchTool,
    websearchTool(search),
  ] as unknown as Tool[];
}
