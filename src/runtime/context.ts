import { homedir } from "node:os";
import { dirname, join } from "node:path";
import type { LoadedConfig } from "../config/load.js";
import { dataDir, globalConfigFile } from "../config/paths.js";
import {
  type ExtraInstruction,
  instructionsDecision,
  loadInstructions,
  renderInstructions,
} from "../context/instructions.js";
import { type ServerInstructions, serverInstructionFiles } from "../context/server-instructions.js";
import { discoverSkills, renderSkills, skillCatalog, skillsDecision } from "../context/skills.js";
import type { Agent } from "../contracts/agent.js";
import type { Decision } from "../contracts/decisions.js";
import type { Tool } from "../contracts/tools.js";
import type { RunContext } from "../loop/step-context.js";
import { nestedAlreadyAdded } from "../loop/step-context.js";
import type { ReadCheck } from "../permission/gate/read-check.js";
import type { SessionStore } from "../store/session-store.js";
import { skillTool } from "../tools/skill.js";
import { findRepoRoot } from "../util/repo.js";

/**
 * What a run settles once about the model's context (seats context.instructions and
 * context.skills): the instruction files, the skills and their tool. Nothing here fails the run:
 * a file that cannot be read is skipped and listed in the decision. Every file passes `check`,
 * the run's read check, first: what the repository brings (its files, its bosun.json's
 * instructions.files) only when the rules allow it outright; what is the user's own (the global
 * folder and skills, the files their config names) also when the rules would ask.
 */
export async function prepareRunContext(input: {
  config: LoadedConfig;
  agent: Agent;
  cwd: string;
  workspace: string;
  store: SessionStore;
  sessionId: string;
  /** The run's read check (permission/read-check.ts), made from its authority and policy. */
  check: ReadCheck;
  /** What the connected MCP servers said of how to use them: after the files, bounded. */
  serverInstructions?: readonly ServerInstructions[];
}): Promise<{ context: RunContext; tools: Tool[]; decisions: Decision[] }> {
  const { config, cwd } = input;
  const globalDir = dirname(globalConfigFile());
  const repoRoot = findRepoRoot(cwd) ?? cwd;
  const claudeMd = config.config.instructions.claude_md;
  // Every layer's files add up (yours, then the repository's), each relative to its own file.
  const extra: ExtraInstruction[] = config.documents.flatMap((doc) =>
    (doc.data.instructions?.files ?? []).map((value) => ({
      value,
      baseDir: doc.file ? dirname(doc.file) : cwd,
      source: doc.file ?? doc.source,
      owner: doc.layer === "project" ? "repository" : "user",
    })),
  );
  const loaded = await loadInstructions({
    globalDir,
    repoRoot,
    cwd,
    claudeMd,
    extra,
    cacheDir: join(dataDir(), "instructions-cache"),
    check: input.check,
    fetchTimeoutMs: config.config.instructions.fetch_timeout_ms,
  });
  loaded.files.push(...serverInstructionFiles(input.serverInstructions ?? []));
  // A resumed session was already given some subfolders' files on reads: not again.
  for (const path of nestedAlreadyAdded(input.store, input.sessionId)) {
    loaded.loaded.add(path);
    loaded.loaded.add(dirname(path));
  }
  const claudeOrigin = config.origins.get("instructions.claude_md");
  const filesOrigin = extra[0]?.source;
  const skills = discoverSkills({ workspace: input.workspace, globalDir, home: homedir(), check: input.check });
  const context: RunContext = {
    cwd,
    agent: input.agent.name,
    readOnly: input.agent.readOnly !== undefined,
    ...(input.agent.prompt ? { agentPrompt: input.agent.prompt } : {}),
    skills: renderSkills(skills.skills),
    instructions: loaded.files,
    nested: { repoRoot, claudeMd, loaded: loaded.loaded, cwd, check: input.check },
    render: renderInstructions,
  };
  return {
    context,
    tools: skills.skills.length > 0 ? [skillTool(skillCatalog(skills.skills, input.check), input.check)] : [],
    decisions: [
      instructionsDecision(loaded, {
        ...(claudeOrigin && claudeOrigin.layer !== "default"
          ? { claudeMdFromConfig: claudeOrigin.file ?? claudeOrigin.source }
          : {}),
        ...(filesOrigin ? { filesSource: filesOrigin } : {}),
      }),
      skillsDecision(skills),
    ],
  };
}
