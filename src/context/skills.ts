import { type Dirent, readdirSync, realpathSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Decision, Reason } from "../contracts/decisions.js";
import { type ReadCheck, type ReadQuery, readChecked } from "../permission/gate/read-check.js";
import type { SkillCatalog } from "../tools/skill.js";
import { isFolderEntry, isMapping, parseFrontMatter, splitFrontMatter as split } from "../util/front-matter.js";

/**
 * Skills (seat `context.skills`): folders holding a `SKILL.md` whose front matter names and
 * describes them. The system prompt lists each skill in one line; the `skill` tool loads one.
 * Every SKILL.md passes the run's read check first (permission/gate/read-check.ts): a project's
 * skill is the repository's (the rules must allow it outright, so a SKILL.md linked to `.env`
 * or out of the workspace is skipped with why); a global one is the user's own.
 */

export interface Skill {
  name: string;
  description: string;
  /** The skill's folder (absolute). */
  dir: string;
  /** Its SKILL.md (absolute). */
  file: string;
  /** The root it was found under (absolute), e.g. `<workspace>/.bosun/skills`. */
  root: string;
  /** Whether the root is the project's (under the workspace) or the user's. */
  scope: "project" | "global";
}

export interface SkillSet {
  /** The skills offered, in root order (then by folder name). */
  skills: Skill[];
  /** Skills with the same name as one found earlier, which wins. */
  shadowed: Array<{ skill: Skill; by: Skill }>;
  /** SKILL.md files (or unreadable roots) left out, and why. */
  skipped: Array<{ file: string; reason: string }>;
  /** The roots searched, in order (those that do not exist included). */
  roots: string[];
}

/** A SKILL.md larger than this is skipped. */
export const SKILL_MAX_BYTES = 256 * 1024;
/** A skill's name: letters, digits, `-`, `_`, `.`; 1 to 64 characters. */
export const SKILL_NAME = /^[A-Za-z0-9._-]{1,64}$/;
/** Characters of a description shown in the system prompt before it is cut. */
const DESCRIPTION_MAX_CHARS = 1024;

/** The roots searched, first wins: the project's three, then the user's three. */
export function skillRoots(options: {
  workspace: string;
  globalDir: string;
  home: string;
}): Array<{ root: string; scope: Skill["scope"] }> {
  return [
    { root: join(options.workspace, ".bosun", "skills"), scope: "project" },
    { root: join(options.workspace, ".agents", "skills"), scope: "project" },
    { root: join(options.workspace, ".claude", "skills"), scope: "project" },
    { root: join(options.globalDir, "skills"), scope: "global" },
    { root: join(options.home, ".agents", "skills"), scope: "global" },
    { root: join(options.home, ".claude", "skills"), scope: "global" },
  ];
}

/**
 * Every skill under the roots (see `skillRoots`): each direct subfolder of a root with a
 * SKILL.md. The first root wins a name; a broken SKILL.md is skipped with its reason. Never
 * throws for what it finds on disk.
 */
export function discoverSkills(options: {
  workspace: string;
  globalDir: string;
  home: string;
  /** The run's read check: every SKILL.md passes it before it is read. */
  check: ReadCheck;
}): SkillSet {
  const set: SkillSet = { skills: [], shadowed: [], skipped: [], roots: [] };
  const byName = new Map<string, Skill>();
  // The same folder reached twice (the workspace is the home folder) is searched once.
  const searched = new Set<string>();
  for (const { root, scope } of skillRoots(options)) {
    set.roots.push(root);
    let real: string;
    let entries: Dirent[];
    try {
      real = realpathSync(root);
      if (searched.has(real)) continue;
      searched.add(real);
      entries = readdirSync(root, { withFileTypes: true });
    } catch (error) {
      const code = errorCode(error);
      if (code !== "ENOENT" && code !== "ENOTDIR") {
        set.skipped.push({ file: root, reason: `the skills folder cannot be read: ${describe(error)}` });
      }
      continue;
    }
    const folders = entries
      .filter((entry) => isFolderEntry(root, entry))
      .map((entry) => entry.name)
      .sort(compare);
    for (const folder of folders) {
      const dir = join(root, folder);
      const file = join(dir, "SKILL.md");
      const loaded = loadSkillFile(file, options.check, skillQuery({ scope, root }));
      if (loaded === undefined) continue; // not a skill folder
      if (!loaded.ok) {
        set.skipped.push({ file, reason: loaded.reason });
        continue;
      }
      const skill: Skill = { name: loaded.name, description: loaded.description, dir, file, root, scope };
      const winner = byName.get(skill.name);
      if (winner) {
        set.shadowed.push({ skill, by: winner });
        continue;
      }
      byName.set(skill.name, skill);
      set.skills.push(skill);
    }
  }
  return set;
}

export type SkillFile = { ok: true; name: string; description: string; body: string } | { ok: false; reason: string };

/** The run's skills as the `skill` tool takes them: each loaded again, through `check`, when the model asks for it. */
export function skillCatalog(skills: readonly Skill[], check: ReadCheck): SkillCatalog<Skill> {
  return { skills, load: (skill) => loadSkillFile(skill.file, check, skillQuery(skill)), query: skillQuery };
}

/** How the read check is asked about a skill's files: a project's are the repository's; a global root is the user's own folder. */
export function skillQuery(skill: Pick<Skill, "scope" | "root">): ReadQuery {
  return skill.scope === "project" ? { origin: "repository" } : { origin: "user", own: skill.root };
}

/**
 * Reads and checks a SKILL.md: undefined when there is none; else its front matter and body, or
 * why it is unusable — the read rules' refusal included (read only from the file they judged).
 */
export function loadSkillFile(file: string, check: ReadCheck, query: ReadQuery): SkillFile | undefined {
  try {
    const info = statSync(file);
    if (!info.isFile()) return { ok: false, reason: "SKILL.md is not a regular file" };
  } catch (error) {
    const code = errorCode(error);
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    return { ok: false, reason: `SKILL.md cannot be read: ${describe(error)}` };
  }
  const verdict = check(file, query);
  if (!verdict.ok) return { ok: false, reason: `SKILL.md is not read: ${verdict.reason}` };
  const read = readChecked(verdict, SKILL_MAX_BYTES);
  if ("tooBig" in read) {
    return { ok: false, reason: `SKILL.md is ${read.tooBig} bytes, over the limit of ${SKILL_MAX_BYTES} (256 KiB)` };
  }
  if ("refused" in read) return { ok: false, reason: `SKILL.md cannot be read: ${read.refused}` };
  return parseSkill(read.text);
}

/** Splits and checks a SKILL.md's text: front matter between `---` lines at the top, then the body. */
export function parseSkill(text: string): SkillFile {
  const parts = splitFrontMatter(text);
  if (!parts.ok) return parts;
  const parsed = parseFrontMatter(parts.frontMatter);
  if (!parsed.ok) return parsed;
  if (!isMapping(parsed.data)) {
    return { ok: false, reason: "front matter is not a YAML mapping (expected name: and description:)" };
  }
  const { name, description } = parsed.data;
  if (name === undefined) return { ok: false, reason: "front matter has no name" };
  if (typeof name !== "string" || !SKILL_NAME.test(name)) {
    return {
      ok: false,
      reason: `invalid name ${JSON.stringify(name)}: use 1-64 letters, digits, "-", "_" or "."`,
    };
  }
  if (description === undefined) return { ok: false, reason: "front matter has no description" };
  if (typeof description !== "string" || description.trim() === "") {
    return { ok: false, reason: "invalid description: it must be a non-empty string" };
  }
  return { ok: true, name, description: oneLine(description), body: parts.body };
}

/** The front matter (between a first line `---` and the next `---` line) and the body after it; SKILL.md must have one. */
export function splitFrontMatter(
  text: string,
): { ok: true; frontMatter: string; body: string } | { ok: false; reason: string } {
  const parts = split(text);
  if (!parts.ok) return parts;
  if (!parts.present) return { ok: false, reason: "no front matter (the first line must be ---)" };
  return { ok: true, frontMatter: parts.frontMatter, body: parts.body };
}

/**
 * The system-prompt text listing the skills: a one-line header, then "- name: description"
 * each. Empty when there are none.
 */
export function renderSkills(skills: readonly Skill[]): string {
  if (skills.length === 0) return "";
  return [
    "Skills (when the task matches one, load it with the skill tool before starting):",
    ...skills.map((skill) => `- ${skill.name}: ${clip(oneLine(skill.description), DESCRIPTION_MAX_CHARS)}`),
  ].join("\n");
}

/** The `context.skills` decision: the names offered, and why each skill was offered, shadowed or skipped. */
export function skillsDecision(set: SkillSet): Decision<string[]> {
  const reasons: Reason[] = [
    ...set.skills.map((skill) => ({ rule: "offered", detail: skill.name, source: skill.file })),
    ...set.shadowed.map(({ skill, by }) => ({
      rule: "shadowed",
      detail: `${skill.name} in ${skill.file} is shadowed by ${by.file}`,
      source: skill.file,
    })),
    ...set.skipped.map(({ file, reason }) => ({ rule: "skipped", detail: reason, source: file })),
  ];
  if (reasons.length === 0) {
    reasons.push({ rule: "none found", detail: `no SKILL.md in ${set.roots.join(", ") || "any skills folder"}` });
  }
  return { seat: "context.skills", holder: "code", answer: set.skills.map((skill) => skill.name), reasons };
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function errorCode(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "code" in error ? String(error.code) : undefined;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
