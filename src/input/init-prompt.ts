import { existsSync } from "node:fs";
import { join } from "node:path";
import { findRepoRoot } from "../util/repo.js";

/**
 * What /init (and `bosun init`) sends: a prompt, not a writer of its own — the model writes
 * AGENTS.md with the ordinary edit tools, so every change goes through their approvals. When the
 * file is there, the prompt says to update it rather than start over.
 */
export function initPrompt(cwd: string): string {
  // The file the prompt names is the repository root's, wherever in it /init was typed.
  const root = findRepoRoot(cwd) ?? cwd;
  const exists = existsSync(join(root, "AGENTS.md"));
  return [
    exists
      ? "Update AGENTS.md at the repository root: read it first, keep what is still true, correct what is out of date, and add what is missing."
      : "Create AGENTS.md at the repository root: a short guide for coding agents working in this repository.",
    "Find out from the repository itself (package manifests, build and CI files, the README, the source tree) and cover:",
    "- the commands: install, build, test (a single test too), lint, format;",
    "- the layout: the main folders and what lives in each;",
    "- the conventions: language and style, naming, how tests are written, anything a contributor must not do.",
    "Keep it concise and factual; write only what you verified. Use the edit or write tool for the file.",
  ].join("\n");
}
