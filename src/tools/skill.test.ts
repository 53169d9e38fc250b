import assert from "node:assert/strict";
import { mkdirSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { checkFor } from "../../test/support/read-check.js";
import { tempFolder, toolContext } from "../../test/support/tools.js";
import { discoverSkills, skillCatalog } from "../context/skills.js";
import { mayChange } from "../permission/rules/call-requests.js";
import { SKILL_MAX_FILES, skillFiles, skillTool } from "./skill.js";

const temp = tempFolder("skill-tool");

function setup() {
  const workspace = join(temp.path, "work");
  const home = join(temp.path, "home");
  mkdirSync(workspace, { recursive: true });
  temp.put(
    "work/.bosun/skills/pdf/SKILL.md",
    "---\nname: pdf\ndescription: Fill PDF forms.\n---\n\n# PDF forms\n\nRun scripts/fill.py on the form.\n",
  );
  temp.put("work/.bosun/skills/pdf/scripts/fill.py", "print('fill')\n");
  temp.put("work/.bosun/skills/pdf/reference.md", "details\n");
  temp.put("work/.bosun/skills/pdf/.git/config", "[core]\n");
  temp.put("work/.bosun/skills/pdf/.hidden/secret.txt", "x");
  temp.put(
    "home/.claude/skills/review/SKILL.md",
    "---\nname: review\ndescription: Review a diff.\n---\nLook closely.\n",
  );
  const { check } = checkFor(workspace, { home: join(home, ".config", "bosun") });
  const set = discoverSkills({ workspace, globalDir: join(home, ".config", "bosun"), home, check });
  return { workspace, home, check, skills: set.skills, tool: skillTool(skillCatalog(set.skills, check), check) };
}

describe("skill tool", () => {
  it("loads the body without front matter and lists the folder's other files by absolute folder", async () => {
    const { workspace, tool } = setup();
    const result = await tool.execute({ name: "pdf" }, toolContext(workspace));
    const dir = join(workspace, ".bosun", "skills", "pdf");
    assert.equal(result.isError, undefined);
    assert.doesNotMatch(result.output, /description: Fill PDF forms/);
    assert.doesNotMatch(result.output, /^---$/m);
    assert.match(result.output, /# PDF forms\n\nRun scripts\/fill\.py on the form\./);
    assert.ok(result.output.includes(`Its folder is ${dir}`));
    const listing = result.output.slice(result.output.indexOf(`Other files in ${dir}`));
    assert.deepEqual(listing.split("\n").slice(1), ["- reference.md", "- scripts/fill.py"]);
    assert.equal(result.summary, "skill pdf (2 other files)");
    assert.equal(result.metadata?.files, 2);
  });

  it("loads a global skill and lists no files when it has none", async () => {
    const { workspace, home, tool } = setup();
    const result = await tool.execute({ name: "review" }, toolContext(workspace));
    assert.equal(result.isError, undefined);
    assert.ok(result.output.includes(join(home, ".claude", "skills", "review", "SKILL.md")));
    assert.match(result.output, /\n\nLook closely\.$/);
    assert.doesNotMatch(result.output, /Other files/);
  });

  it("reports an unknown name as an error listing the available names", async () => {
    const { workspace, tool } = setup();
    const result = await tool.execute({ name: "pdff" }, toolContext(workspace));
    assert.equal(result.isError, true);
    assert.match(result.output, /no skill named "pdff"/);
    assert.match(result.output, /Available skills: pdf, review\./);
    assert.equal(result.summary, "skill pdff (unknown)");
  });

  it("says so when there are no skills at all", async () => {
    const result = await skillTool(skillCatalog([], checkFor(temp.path).check), checkFor(temp.path).check).execute(
      { name: "x" },
      toolContext(temp.path),
    );
    assert.equal(result.isError, true);
    assert.match(result.output, /no skills are available/);
  });

  it("reports a skill whose SKILL.md was removed or broken since discovery", async () => {
    const { workspace, skills, tool } = setup();
    const pdf = skills.find((s) => s.name === "pdf");
    assert.ok(pdf);
    temp.put("work/.bosun/skills/pdf/SKILL.md", "no front matter now\n");
    const broken = await tool.execute({ name: "pdf" }, toolContext(workspace));
    assert.equal(broken.isError, true);
    assert.match(broken.output, /no front matter/);
    rmSync(pdf.file);
    const gone = await tool.execute({ name: "pdf" }, toolContext(workspace));
    assert.equal(gone.isError, true);
    assert.match(gone.output, /no longer exists/);
  });

  it("leaves out of the list files and folders the read rules do not let in, saying which and why", async () => {
    const { workspace, tool } = setup();
    temp.put("work/.env", "SECRET=hunter2\n");
    temp.put("outside/notes/a.txt", "private\n");
    const dir = join(workspace, ".bosun", "skills", "pdf");
    symlinkSync(join(workspace, ".env"), join(dir, "creds.txt"));
    symlinkSync(join(temp.path, "outside", "notes"), join(dir, "notes"));
    const result = await tool.execute({ name: "pdf" }, toolContext(workspace));
    const listing = result.output.slice(result.output.indexOf(`Other files in ${dir}`));
    assert.deepEqual(listing.split("\n").slice(1, 3), ["- reference.md", "- scripts/fill.py"]);
    assert.match(
      result.output,
      /Left out, as the read rules do not let them into the context:\n- creds\.txt: a link to .*\.env: read:/,
    );
    assert.match(result.output, /\n- notes\/: a link to .*\/outside\/notes: external_directory:/);
    assert.doesNotMatch(result.output, /a\.txt/);
    assert.equal(result.metadata?.files, 2);
    assert.deepEqual(
      ((result.metadata?.leftOut ?? []) as Array<{ file: string }>).map((entry) => entry.file),
      ["creds.txt", "notes/"],
    );
  });

  it("refuses a SKILL.md turned into a link to .env after discovery", async () => {
    const { workspace, skills, tool } = setup();
    const pdf = skills.find((s) => s.name === "pdf");
    assert.ok(pdf);
    temp.put("work/.env", "---\nname: pdf\ndescription: SECRET=hunter2\n---\nSECRET=hunter2\n");
    rmSync(pdf.file);
    symlinkSync(join(workspace, ".env"), pdf.file);
    const result = await tool.execute({ name: "pdf" }, toolContext(workspace));
    assert.equal(result.isError, true);
    assert.doesNotMatch(result.output, /hunter2/);
    assert.match(result.output, /SKILL\.md is not read: a link to .*\.env/);
  });

  it("requests skill:<name>, which does not count as changing anything", async () => {
    const { workspace, tool } = setup();
    const description = await tool.requests({ name: "pdf" }, { cwd: workspace, workspace });
    assert.deepEqual(description, { requests: [{ action: "skill", resource: "pdf" }] });
    assert.equal(mayChange(description), false);
    assert.equal(tool.kind, "read");
    assert.equal(tool.name, "skill");
  });

  it("validates its arguments: a name is required, nothing else is accepted", () => {
    const tool = skillTool(skillCatalog([], checkFor(temp.path).check), checkFor(temp.path).check);
    assert.equal(tool.schema.safeParse({ name: "a" }).success, true);
    assert.equal(tool.schema.safeParse({}).success, false);
    assert.equal(tool.schema.safeParse({ name: "a", extra: 1 }).success, false);
  });
});

describe("skillFiles", () => {
  it("lists at most SKILL_MAX_FILES, counting the rest", () => {
    for (let i = 0; i < SKILL_MAX_FILES + 5; i++) temp.put(`many/f${String(i).padStart(3, "0")}.txt`);
    temp.put("many/SKILL.md", "x");
    const files = skillFiles(join(temp.path, "many"), checkFor(temp.path).check, { origin: "repository" });
    assert.equal(files.listed.length, SKILL_MAX_FILES);
    assert.equal(files.total, SKILL_MAX_FILES + 5);
    assert.equal(files.listed[0], "f000.txt");
    assert.ok(!files.listed.includes("SKILL.md"));
  });

  it("says in the tool's output how many files were not listed", async () => {
    const workspace = join(temp.path, "work");
    temp.put("work/.agents/skills/big/SKILL.md", "---\nname: big\ndescription: Many files.\n---\nbody\n");
    for (let i = 0; i < SKILL_MAX_FILES + 3; i++) temp.put(`work/.agents/skills/big/data/${i}.txt`);
    const { check } = checkFor(workspace);
    const { skills } = discoverSkills({
      workspace,
      globalDir: join(temp.path, "g"),
      home: join(temp.path, "h"),
      check,
    });
    const result = await skillTool(skillCatalog(skills, check), check).execute({ name: "big" }, toolContext(workspace));
    assert.equal(result.output.split("\n").filter((line) => line.startsWith("- data/")).length, SKILL_MAX_FILES);
    assert.match(result.output, /\n\(3 more not listed\)$/);
    assert.equal(result.summary, `skill big (${SKILL_MAX_FILES + 3} other files)`);
  });

  it("survives a symlink loop and keeps a nested SKILL.md", () => {
    temp.put("loop/SKILL.md", "x");
    temp.put("loop/sub/SKILL.md", "nested");
    symlinkSync(join(temp.path, "loop"), join(temp.path, "loop", "sub", "back"));
    const files = skillFiles(join(temp.path, "loop"), checkFor(temp.path).check, { origin: "repository" });
    assert.deepEqual(files.listed, ["sub/SKILL.md"]);
    assert.equal(files.complete, true);
  });
});
