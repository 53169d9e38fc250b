import assert from "node:assert/strict";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { checkFor } from "../../test/support/read-check.js";
import { tempFolder } from "../../test/support/tools.js";
import {
  discoverSkills,
  parseSkill,
  renderSkills,
  SKILL_MAX_BYTES,
  type Skill,
  skillsDecision,
  splitFrontMatter,
} from "./skills.js";

const temp = tempFolder("skills");

/** A workspace, a global dir and a home folder, side by side in the temp folder. */
function places() {
  const workspace = join(temp.path, "work");
  const globalDir = join(temp.path, "home", ".config", "bosun");
  const home = join(temp.path, "home");
  mkdirSync(workspace, { recursive: true });
  return { workspace, globalDir, home, check: checkFor(workspace, { home: globalDir }).check };
}

function skillMd(name: string, description: string, body = "Do the thing."): string {
  return `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`;
}

describe("discoverSkills", () => {
  it("finds skills under all six roots, project roots first, in order", () => {
    const where = places();
    temp.put("work/.bosun/skills/a/SKILL.md", skillMd("a", "from .bosun"));
    temp.put("work/.agents/skills/b/SKILL.md", skillMd("b", "from .agents"));
    temp.put("work/.claude/skills/c/SKILL.md", skillMd("c", "from .claude"));
    temp.put("home/.config/bosun/skills/d/SKILL.md", skillMd("d", "global bosun"));
    temp.put("home/.agents/skills/e/SKILL.md", skillMd("e", "global agents"));
    temp.put("home/.claude/skills/f/SKILL.md", skillMd("f", "global claude"));
    const set = discoverSkills(where);
    assert.deepEqual(
      set.skills.map((s) => [s.name, s.description, s.scope]),
      [
        ["a", "from .bosun", "project"],
        ["b", "from .agents", "project"],
        ["c", "from .claude", "project"],
        ["d", "global bosun", "global"],
        ["e", "global agents", "global"],
        ["f", "global claude", "global"],
      ],
    );
    const f = set.skills[5];
    assert.equal(f?.root, join(where.home, ".claude", "skills"));
    assert.equal(f?.dir, join(where.home, ".claude", "skills", "f"));
    assert.equal(f?.file, join(where.home, ".claude", "skills", "f", "SKILL.md"));
    assert.deepEqual(set.shadowed, []);
    assert.deepEqual(set.skipped, []);
    assert.equal(set.roots.length, 6);
  });

  it("is empty, with nothing skipped, when no root exists", () => {
    const set = discoverSkills(places());
    assert.deepEqual(set.skills, []);
    assert.deepEqual(set.skipped, []);
    assert.deepEqual(set.shadowed, []);
  });

  it("orders skills by folder name within a root and ignores folders without SKILL.md and loose files", () => {
    const where = places();
    temp.put("work/.bosun/skills/zeta/SKILL.md", skillMd("zeta", "z"));
    temp.put("work/.bosun/skills/alpha/SKILL.md", skillMd("alpha", "a"));
    temp.put("work/.bosun/skills/notes/README.md", "not a skill");
    temp.put("work/.bosun/skills/SKILL.md", skillMd("loose", "a file directly in the root"));
    const set = discoverSkills(where);
    assert.deepEqual(
      set.skills.map((s) => s.name),
      ["alpha", "zeta"],
    );
    assert.deepEqual(set.skipped, []);
  });

  it("follows a symlinked skill folder within the workspace, and a global one anywhere (the user's own)", () => {
    const where = places();
    const inside = temp.put("work/skills-src/linked/SKILL.md", skillMd("linked", "via a link"));
    mkdirSync(join(where.workspace, ".claude", "skills"), { recursive: true });
    symlinkSync(join(inside, ".."), join(where.workspace, ".claude", "skills", "linked"));
    const global = temp.put("elsewhere/mine/SKILL.md", skillMd("mine", "the user's"));
    mkdirSync(join(where.home, ".agents", "skills"), { recursive: true });
    symlinkSync(join(global, ".."), join(where.home, ".agents", "skills", "mine"));
    assert.deepEqual(
      discoverSkills(where).skills.map((s) => s.name),
      ["linked", "mine"],
    );
  });

  it("skips a project's skill whose folder or SKILL.md leads out of the workspace or to .env, with why", () => {
    const where = places();
    const out = temp.put("elsewhere/away/SKILL.md", skillMd("away", "outside"));
    temp.put("work/.env", skillMd("secret", "SECRET=hunter2"));
    const root = join(where.workspace, ".bosun", "skills");
    mkdirSync(join(root, "env"), { recursive: true });
    symlinkSync(join(out, ".."), join(root, "away"));
    symlinkSync(join(where.workspace, ".env"), join(root, "env", "SKILL.md"));
    const set = discoverSkills(where);
    assert.deepEqual(set.skills, []);
    assert.deepEqual(
      set.skipped.map(({ file, reason }) => [
        file,
        reason.replace(/^(SKILL\.md is not read: a link to \S+?): .*/, "$1"),
      ]),
      [
        [join(root, "away", "SKILL.md"), `SKILL.md is not read: a link to ${out}`],
        [join(root, "env", "SKILL.md"), `SKILL.md is not read: a link to ${join(where.workspace, ".env")}`],
      ],
    );
    assert.match(set.skipped[0]?.reason ?? "", /external_directory:.*nobody approved it/);
    assert.match(set.skipped[1]?.reason ?? "", /read:.*\.env: ask/);
    const decision = skillsDecision(set);
    assert.ok(decision.reasons.some((r) => r.rule === "skipped" && /a link to .*\.env/.test(r.detail ?? "")));
  });

  it("lets the first root win a name and lists the shadowed ones with both files", () => {
    const where = places();
    const winner = temp.put("work/.agents/skills/pdf/SKILL.md", skillMd("pdf", "project pdf"));
    const global = temp.put("home/.config/bosun/skills/pdf/SKILL.md", skillMd("pdf", "global pdf"));
    const claude = temp.put("home/.claude/skills/pdf-old/SKILL.md", skillMd("pdf", "older pdf"));
    const set = discoverSkills(where);
    assert.deepEqual(
      set.skills.map((s) => [s.name, s.description, s.file]),
      [["pdf", "project pdf", winner]],
    );
    assert.deepEqual(
      set.shadowed.map(({ skill, by }) => [skill.file, by.file]),
      [
        [global, winner],
        [claude, winner],
      ],
    );
  });

  it("searches a folder reached twice only once (the workspace is the home folder)", () => {
    const home = join(temp.path, "home");
    temp.put("home/.agents/skills/one/SKILL.md", skillMd("one", "once"));
    const set = discoverSkills({
      workspace: home,
      globalDir: join(home, ".config", "bosun"),
      home,
      check: checkFor(home).check,
    });
    assert.deepEqual(
      set.skills.map((s) => [s.name, s.scope]),
      [["one", "project"]],
    );
    assert.deepEqual(set.shadowed, [], "a skill must not shadow itself");
  });

  it("skips each kind of broken SKILL.md with its reason, keeping the good ones", () => {
    const where = places();
    const root = "work/.bosun/skills";
    temp.put(`${root}/good/SKILL.md`, skillMd("good", "works"));
    const cases: Array<[string, string | Buffer, RegExp]> = [
      ["no-front", "# Just a heading\n", /no front matter/],
      ["unclosed", "---\nname: x\ndescription: y\n", /not closed/],
      ["bad-yaml", "---\nname: [oops\ndescription: y\n---\nbody\n", /not valid YAML/],
      ["list-yaml", "---\n- a\n- b\n---\n", /not a YAML mapping/],
      ["no-name", "---\ndescription: y\n---\n", /no name/],
      ["bad-name", "---\nname: has space\ndescription: y\n---\n", /invalid name "has space"/],
      ["long-name", `---\nname: ${"x".repeat(65)}\ndescription: y\n---\n`, /invalid name/],
      ["number-name", "---\nname: 42\ndescription: y\n---\n", /invalid name 42/],
      ["no-description", "---\nname: nodesc\n---\n", /no description/],
      ["empty-description", '---\nname: emptydesc\ndescription: "  "\n---\n', /invalid description/],
      ["list-description", "---\nname: listdesc\ndescription: [a, b]\n---\n", /invalid description/],
      ["huge", skillMd("huge", "big", "x".repeat(SKILL_MAX_BYTES)), /over the limit of 262144/],
    ];
    const files = new Map<string, RegExp>();
    for (const [folder, content, reason] of cases) files.set(temp.put(`${root}/${folder}/SKILL.md`, content), reason);
    mkdirSync(join(where.workspace, ".bosun", "skills", "dir-not-file", "SKILL.md"), { recursive: true });

    const set = discoverSkills(where);
    assert.deepEqual(
      set.skills.map((s) => s.name),
      ["good"],
    );
    assert.equal(set.skipped.length, cases.length + 1);
    for (const [file, reason] of files) {
      const skipped = set.skipped.find((s) => s.file === file);
      assert.ok(skipped, `${file} should be listed as skipped`);
      assert.match(skipped.reason, reason);
    }
    const dirCase = set.skipped.find((s) => s.file.includes("dir-not-file"));
    assert.match(dirCase?.reason ?? "", /not a regular file/);
  });

  it("accepts a SKILL.md of exactly the size limit", () => {
    const where = places();
    const head = skillMd("edge", "at the limit", "");
    temp.put("work/.bosun/skills/edge/SKILL.md", head + "x".repeat(SKILL_MAX_BYTES - Buffer.byteLength(head)));
    assert.deepEqual(
      discoverSkills(where).skills.map((s) => s.name),
      ["edge"],
    );
  });
});

describe("parseSkill", () => {
  it("reads a block description as one line and returns the body without front matter", () => {
    const parsed = parseSkill(
      "\uFEFF---\r\nname: my.skill_2-x\r\ndescription: >\r\n  Fills PDF forms.\r\n  Use for PDFs.\r\n---\r\n\r\n# Steps\r\n1. go\r\n",
    );
    assert.deepEqual(parsed, {
      ok: true,
      name: "my.skill_2-x",
      description: "Fills PDF forms. Use for PDFs.",
      body: "# Steps\n1. go",
    });
  });

  it("names a YAML error's line as counted in SKILL.md", () => {
    assert.deepEqual(parseSkill("---\nname: a\ndescription: b\nname: c\n---\n"), {
      ok: false,
      reason: "front matter is not valid YAML: Map keys must be unique (line 4, column 1)",
    });
  });

  it("keeps a later --- line in the body", () => {
    const split = splitFrontMatter("---\nname: a\n---\nabove\n---\nbelow\n");
    assert.deepEqual(split, { ok: true, frontMatter: "name: a", body: "above\n---\nbelow" });
  });
});

describe("renderSkills", () => {
  const skill = (name: string, description: string): Skill => ({
    name,
    description,
    dir: `/s/${name}`,
    file: `/s/${name}/SKILL.md`,
    root: "/s",
    scope: "project",
  });

  it("is empty when there are no skills", () => {
    assert.equal(renderSkills([]), "");
  });

  it("is a header naming the skill tool, then one line per skill", () => {
    const text = renderSkills([skill("pdf", "Fill PDF forms."), skill("review", "Review a diff\n  carefully.")]);
    const lines = text.split("\n");
    assert.equal(lines.length, 3);
    assert.match(lines[0] ?? "", /skill tool/);
    assert.deepEqual(lines.slice(1), ["- pdf: Fill PDF forms.", "- review: Review a diff carefully."]);
  });

  it("cuts a very long description", () => {
    const text = renderSkills([skill("long", "word ".repeat(1000))]);
    const line = text.split("\n")[1] ?? "";
    assert.ok(line.length < 1100, `line is ${line.length} characters`);
    assert.ok(line.endsWith("…"));
  });
});

describe("skillsDecision", () => {
  it("answers the offered names, with a reason for each offered, shadowed and skipped skill", () => {
    const where = places();
    const a = temp.put("work/.bosun/skills/a/SKILL.md", skillMd("a", "first"));
    const b = temp.put("work/.claude/skills/b/SKILL.md", skillMd("b", "second"));
    const shadowedA = temp.put("home/.agents/skills/a/SKILL.md", skillMd("a", "loses"));
    const broken = temp.put("home/.claude/skills/broken/SKILL.md", "no front matter\n");
    const decision = skillsDecision(discoverSkills(where));
    assert.equal(decision.seat, "context.skills");
    assert.equal(decision.holder, "code");
    assert.deepEqual(decision.answer, ["a", "b"]);
    assert.deepEqual(decision.reasons, [
      { rule: "offered", detail: "a", source: a },
      { rule: "offered", detail: "b", source: b },
      { rule: "shadowed", detail: `a in ${shadowedA} is shadowed by ${a}`, source: shadowedA },
      { rule: "skipped", detail: "no front matter (the first line must be ---)", source: broken },
    ]);
  });

  it("says none were found when there are none", () => {
    const decision = skillsDecision(discoverSkills(places()));
    assert.deepEqual(decision.answer, []);
    assert.equal(decision.reasons.length, 1);
    assert.equal(decision.reasons[0]?.rule, "none found");
    assert.match(decision.reasons[0]?.detail ?? "", /\.bosun\/skills/);
  });
});
