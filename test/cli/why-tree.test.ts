import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { buildFamily, type Family } from "../support/delegates.js";
import { createWorkspace, type Workspace } from "../support/workspace.js";

/**
 * `bosun why` across delegates, through the real binary, over sessions built in the workspace's
 * store as a delegating run leaves them (test/support/delegates.ts): root delegates reviewer
 * (which delegates explorer) and builder; a fork of root sits beside them. Run `npm run build` first.
 */

interface Tree {
  session: string;
  title: string;
  parent: string | null;
  delegate: { agent: string; description?: string; call: string; depth: number } | null;
  status: string | null;
  decisions: Array<{ seat: string; reasons: Array<{ rule: string }> }>;
  children: Tree[];
}

describe("bosun why: delegates", () => {
  let ws: Workspace;
  let f: Family;
  before(() => {
    ws = createWorkspace();
    f = buildFamily(ws);
  });
  after(() => ws.cleanup());

  const why = async (args: string[], columns = 200) => {
    const result = await ws.run(["why", ...args], { env: { COLUMNS: String(columns) } });
    assert.equal(result.code, 0, result.stderr);
    return result.stdout.trimEnd().split("\n");
  };

  it("a parent's why is its own decisions, then how many delegates it has and how to see them", async () => {
    const lines = await why([f.root]);
    assert.ok(lines.includes("      call.permission  config  allow  rule for build it"), lines.join("\n"));
    // Each task call names the session it started.
    assert.ok(lines.includes(`    call c1: task reviewer → ${f.reviewer}`), lines.join("\n"));
    assert.ok(lines.includes(`    call c2: task builder → ${f.builder}`), lines.join("\n"));
    assert.ok(!lines.some((l) => l.includes("rule for look at the diff")), "no delegate's decisions without --tree");
    assert.deepEqual(lines.slice(-2), [
      "",
      `2 delegates (child sessions): bosun why ${f.root} --tree shows theirs too`,
    ]);
    // The fork is no delegate of root, and has none of its own.
    const fork = await why([f.fork]);
    assert.ok(!fork.some((l) => /delegate/.test(l)), fork.join("\n"));
  });

  it("--tree: the parent's decisions, then each delegate's under a heading with agent, task, status and id, recursively", async () => {
    const lines = await why([f.root, "--tree"]);
    const headings = lines.filter((l) => /^ *delegate /.test(l));
    assert.deepEqual(headings, [
      `delegate reviewer: review the diff · done · ${f.reviewer}`,
      `  delegate explorer: find the callers · failed · ${f.explorer}`,
      `delegate builder: write the fix · unfinished · ${f.builder}`,
    ]);
    // Each one's decisions right under its heading, one level deeper; the parent's own first.
    const at = (text: string) => lines.findIndex((l) => l.includes(text));
    const order = [
      "rule for build it",
      "rule for now build",
      `delegate reviewer`,
      "rule for look at the diff",
      `delegate explorer`,
      "rule for find the callers of add",
      `delegate builder`,
      "rule for write the fix",
    ].map(at);
    assert.deepEqual(
      order,
      [...order].sort((a, b) => a - b),
      lines.join("\n"),
    );
    assert.ok(order.every((i) => i >= 0));
    assert.equal(
      lines[at("rule for look at the diff")],
      "        call.permission  config  allow  rule for look at the diff",
    );
    assert.equal(
      lines[at("rule for find the callers")],
      "        call.permission  config  deny  rule for find the callers of add",
    );
    assert.equal(lines[at("rule for find the callers") - 2], "    turn 1 · find the callers of add");
    assert.ok(!lines.some((l) => l.includes(f.fork)), "a fork is not in the tree");
    assert.ok(!lines.some((l) => l.includes("--tree shows")), "no hint when the tree is shown");
  });

  it("--tree fits the terminal: a long task is shortened, the session id kept whole", async () => {
    const lines = await why([f.root, "--tree"], 60);
    for (const line of lines) assert.ok(line.length <= 60, `${line.length}: ${line}`);
    const heading = lines.find((l) => l.startsWith("  delegate explorer")) ?? assert.fail(lines.join("\n"));
    assert.ok(heading.endsWith(` · ${f.explorer}`), heading);
    assert.match(heading, /^ {2}delegate explorer: find .*…/);
  });

  it("a delegate's why names its parent; with --tree it shows its own delegates", async () => {
    const lines = await why([f.explorer]);
    assert.equal(
      lines[0],
      `delegate explorer: find the callers · failed, started by session ${f.reviewer} (its call k1)`,
    );
    assert.equal(lines[1], "");
    const reviewer = await why([f.reviewer, "--tree"]);
    assert.equal(reviewer[0], `delegate reviewer: review the diff · done, started by session ${f.root} (its call c1)`);
    assert.ok(reviewer.includes(`delegate explorer: find the callers · failed · ${f.explorer}`), reviewer.join("\n"));
  });

  it("--tree --json: the session and each delegate nested, each with its decisions; without --tree still the array", async () => {
    const tree = JSON.parse((await why([f.root, "--tree", "--json"])).join("\n")) as Tree;
    const shape = (t: Tree): unknown => ({
      session: t.session,
      delegate: t.delegate?.agent ?? null,
      status: t.status,
      rules: t.decisions.map((d) => d.reasons[0]?.rule),
      children: t.children.map(shape),
    });
    assert.deepEqual(shape(tree), {
      session: f.root,
      delegate: null,
      status: null,
      rules: ["root set-up", "rule for build it", "rule for now build"],
      children: [
        {
          session: f.reviewer,
          delegate: "reviewer",
          status: "done",
          rules: ["reviewer set-up", "rule for look at the diff"],
          children: [
            {
              session: f.explorer,
              delegate: "explorer",
              status: "failed",
              rules: ["rule for find the callers of add"],
              children: [],
            },
          ],
        },
        {
          session: f.builder,
          delegate: "builder",
          status: "unfinished",
          rules: ["rule for write the fix"],
          children: [],
        },
      ],
    });
    const explorer = tree.children[0]?.children[0];
    assert.deepEqual(explorer?.delegate, { agent: "explorer", description: "find the callers", call: "k1", depth: 2 });
    assert.equal(explorer?.parent, f.reviewer);
    assert.equal(explorer?.title, "find the callers");
    const flat = JSON.parse((await why([f.root, "--json"])).join("\n")) as unknown[];
    assert.ok(Array.isArray(flat));
    assert.equal(flat.length, 3);
    // A seat glob narrows every session of the tree.
    const narrowed = JSON.parse((await why([f.root, "--tree", "--json", "--seat", "session.*"])).join("\n")) as Tree;
    assert.deepEqual(
      [narrowed, ...narrowed.children].map((t) => t.decisions.length),
      [1, 1, 0],
    );
  });

  it("an unknown flag is a usage error", async () => {
    for (const args of [
      ["why", f.root, "--trees"],
      ["why", f.root, "--tree=yes"],
    ]) {
      const result = await ws.run(args);
      assert.equal(result.code, 2, result.stderr);
      assert.equal(result.stdout, "");
      assert.match(result.stderr, /^bosun: /);
      assert.match(result.stderr, /Usage: bosun why/);
    }
  });
});
