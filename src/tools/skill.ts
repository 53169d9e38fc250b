import { type Dirent, readdirSync, realpathSync, statSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import type { Tool } from "../contracts/tools.js";
import type { ReadCheck, ReadQuery } from "../permission/gate/read-check.js";

/** Files of a skill's folder listed with its instructions. */
export const SKILL_MAX_FILES = 200;
/** Entries walked in a skill's folder before the count of files is given as "more than". */
const WALK_LIMIT = 5000;
/** Files left out by the read rules that the result names (the rest are counted). */
const LEFT_OUT_SHOWN = 20;

const schema = z.strictObject({
  name: z.string().describe("The skill's name"),
});

export type SkillInput = z.infer<typeof schema>;

/** A skill as the tool needs it: its name, folder and SKILL.md (absolute). */
export interface OfferedSkill {
  name: string;
  dir: string;
  file: string;
}

/**
 * One run's skills, as context/skills.ts found them (`skillCatalog`): passed in, so the tool
 * knows nothing of how skills are discovered or their files parsed.
 */
export interface SkillCatalog<S extends OfferedSkill = OfferedSkill> {
  skills: readonly S[];
  /** Reads the skill's SKILL.md now, through the read check: undefined when it is gone; else its body or why not. */
  load(skill: S): { ok: true; body: string } | { ok: false; reason: string } | undefined;
  /** How the read check is asked about the skill's files. */
  query(skill: S): ReadQuery;
}

/**
 * The `skill` tool for one run's skills (found by `discoverSkills`, context/skills.ts): loads a skill's
 * instructions (its SKILL.md without the front matter) and lists the other files of its
 * folder, which the model reads by path when the instructions refer to them. The SKILL.md and
 * every file listed pass the run's read check, as at discovery: a link to a file the rules do
 * not let in (`.env`, a file out of the workspace, for a project's skill) is left out of the
 * list, and the result says which and why.
 */
export function skillTool<S extends OfferedSkill>(catalog: SkillCatalog<S>, check: ReadCheck): Tool<SkillInput> {
  const byName = new Map(catalog.skills.map((skill) => [skill.name, skill]));
  return {
    name: "skill",
    description: "Load a skill's instructions by name (the skills are listed in the system prompt).",
    schema,
    kind: "read",
    // Loading a skill changes nothing: its one request is `skill:<name>`, judged by the skill rules.
    requests: async (input) => ({ requests: [{ action: "skill", resource: input.name }] }),
    async execute(input) {
      const skill = byName.get(input.name);
      if (!skill) {
        const names = [...byName.keys()];
        return {
          output:
            names.length === 0
              ? `There is no skill named ${JSON.stringify(input.name)}: no skills are available.`
              : `There is no skill named ${JSON.stringify(input.name)}. Available skills: ${names.join(", ")}.`,
          isError: true,
          summary: `skill ${input.name} (unknown)`,
        };
      }
      // Read now, not at discovery: the file may have changed since the run began.
      const query = catalog.query(skill);
      const loaded = catalog.load(skill);
      if (!loaded?.ok) {
        const why = loaded ? loaded.reason : "SKILL.md no longer exists";
        return {
          output: `Cannot load skill ${skill.name} from ${skill.file}: ${why}.`,
          isError: true,
          summary: `skill ${skill.name} (failed)`,
        };
      }
      const files = skillFiles(skill.dir, check, query);
      const lines = [
        `Skill ${skill.name} (${skill.file}). Its folder is ${skill.dir}: paths in it are relative to that folder.`,
        "",
        loaded.body === "" ? "(SKILL.md has no instructions after its front matter.)" : loaded.body,
      ];
      if (files.listed.length > 0) {
        lines.push("", `Other files in ${skill.dir} (read them by path when needed):`);
        lines.push(...files.listed.map((file) => `- ${file}`));
        const more = files.total - files.listed.length;
        if (more > 0) lines.push(`(${files.complete ? "" : "at least "}${more} more not listed)`);
      }
      if (files.leftOut.length > 0) {
        lines.push("", "Left out, as the read rules do not let them into the context:");
        lines.push(...files.leftOut.slice(0, LEFT_OUT_SHOWN).map(({ file, reason }) => `- ${file}: ${reason}`));
        const more = files.leftOut.length - LEFT_OUT_SHOWN;
        if (more > 0) lines.push(`(${more} more left out)`);
      }
      const count = `${files.total}${files.complete ? "" : "+"} other ${files.total === 1 ? "file" : "files"}`;
      return {
        output: lines.join("\n"),
        summary: `skill ${skill.name} (${count})`,
        metadata: {
          name: skill.name,
          file: skill.file,
          dir: skill.dir,
          files: files.total,
          listed: files.listed.length,
          ...(files.leftOut.length > 0 ? { leftOut: files.leftOut } : {}),
        },
      };
    },
  };
}

export interface SkillFiles {
  /** Paths relative to the folder, with "/", sorted, at most SKILL_MAX_FILES. */
  listed: string[];
  /** Files found (all of them when `complete`). */
  total: number;
  /** False when the walk stopped early (a very large folder). */
  complete: boolean;
  /** Files and folders the read check refused (relative, with why): neither listed nor counted. */
  leftOut: Array<{ file: string; reason: string }>;
}

/**
 * The files of a skill's folder but its SKILL.md, recursively, leaving out dot-folders (.git)
 * and whatever the read check refuses (a folder refused is not walked).
 */
export function skillFiles(dir: string, check: ReadCheck, query: ReadQuery): SkillFiles {
  const found: SkillFiles = { listed: [], total: 0, complete: true, leftOut: [] };
  const visited = new Set<string>();
  let walked = 0;
  const walk = (folder: string, prefix: string) => {
    let real: string;
    let entries: Dirent[];
    try {
      real = realpathSync(folder);
      if (visited.has(real)) return; // a symlink loop
      visited.add(real);
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (++walked > WALK_LIMIT) {
        found.complete = false;
        return;
      }
      const path = join(folder, entry.name);
      const relative = `${prefix}${entry.name}`;
      if (relative === "SKILL.md") continue;
      const folderEntry = isFolder(path, entry);
      if (folderEntry && entry.name.startsWith(".")) continue;
      const verdict = check(path, query);
      if (!verdict.ok) {
        found.leftOut.push({ file: folderEntry ? `${relative}/` : relative, reason: verdict.reason });
        continue;
      }
      if (folderEntry) {
        walk(path, `${relative}/`);
        if (!found.complete) return;
        continue;
      }
      found.total++;
      if (found.listed.length < SKILL_MAX_FILES) found.listed.push(relative);
    }
  };
  walk(dir, "");
  return found;
}

function isFolder(path: string, entry: Dirent): boolean {
  if (entry.isDirectory()) return true;
  if (!entry.isSymbolicLink()) return false;
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
