import assert from "node:assert/strict";
import { test } from "node:test";
import type { GateDeps } from "../permission/gate/gate.js";
import type { Rule } from "../permission/rules/rules.js";
import { sessionGate } from "./session-gate.js";

const savedRule: Rule = {
  action: "edit",
  pattern: "/w/a.ts",
  effect: "allow",
  source: { layer: "saved", key: "saved edit:/w/a.ts" },
};

function state() {
  const persisted: string[] = [];
  const gate = sessionGate(
    (saveAlways) =>
      ({
        authority: { rules: [[]], mode: { name: "approve", holder: "code" }, cwd: "/w", workspace: "/w", home: "/h" },
        policy: { rules: [], files: [] },
        hooks: [],
        auto: false,
        sandbox: "off",
        visible: [],
        ownState: [],
        saveAlways,
        sessionId: "s1",
        signal: new AbortController().signal,
        record: () => {},
      }) as unknown as GateDeps,
    (rules, tool) => {
      persisted.push(`${tool}:${rules.map((r) => `${r.action}:${r.pattern}`).join(",")}`);
      return [savedRule];
    },
  );
  return { gate, persisted };
}

test("each turn judges with a fresh, frozen copy of the session's gate; the session's is untouched", () => {
  const { gate } = state();
  const prompt = (async () => ({ answer: "once" })) as unknown as NonNullable<GateDeps["prompt"]>;
  const first = gate.forTurn({ prompt, signal: new AbortController().signal, record: () => {} });
  const second = gate.forTurn({ signal: new AbortController().signal, record: () => {} });

  assert.equal(first.prompt, prompt);
  assert.notEqual(first.signal, gate.current().signal);
  assert.equal(second.prompt, undefined, "a turn that brings no person does not inherit the last turn's");
  assert.notEqual(first, second);
  assert.equal(gate.current().prompt, undefined);
  assert.ok(Object.isFrozen(first) && Object.isFrozen(second) && Object.isFrozen(gate.current()));
  assert.throws(() => {
    (first as GateDeps).signal = gate.current().signal;
  }, TypeError);
});

test("an 'always' is saved, then a new gate holds it; the gate a call holds is not changed", () => {
  const { gate, persisted } = state();
  const turn = gate.forTurn({ signal: new AbortController().signal, record: () => {} });
  const before = turn.authority.rules;
  turn.saveAlways([{ action: "edit", pattern: "a.ts" }], "edit");

  assert.deepEqual(persisted, ["edit:edit:a.ts"]);
  assert.equal(turn.authority.rules, before);
  assert.deepEqual(before, [[]], "nothing was pushed into the old rule set");
  assert.deepEqual(gate.current().authority.rules, [[savedRule]]);
  assert.deepEqual(gate.forTurn({ signal: turn.signal, record: turn.record }).authority.rules, [[savedRule]]);
  // The same approval twice adds nothing the second time.
  gate.current().saveAlways([{ action: "edit", pattern: "a.ts" }], "edit");
  assert.deepEqual(gate.current().authority.rules, [[savedRule]]);
});

test("settle replaces the gate whole (set-up), frozen again", () => {
  const { gate } = state();
  const old = gate.current();
  gate.settle((g) => ({ ...g, hooks: [] }));
  assert.notEqual(gate.current(), old);
  assert.ok(Object.isFrozen(gate.current()));
  assert.equal(gate.current().saveAlways, old.saveAlways, "an 'always' still reaches the holder");
});

test("an approval a delegate's gate adopts is in force in its parent's from the next call, and passed on up", () => {
  const { gate } = state();
  const told: Rule[][] = [];
  const parent = sessionGate(
    (saveAlways) => ({ ...gate.current(), saveAlways }) as GateDeps,
    () => [],
    (rules) => told.push([...rules]),
  );
  const before = parent.current();
  parent.adopt([savedRule]);
  const after = parent.current();
  assert.notEqual(before, after, "a new gate, not the old one changed");
  assert.ok(Object.isFrozen(after.authority));
  assert.match(JSON.stringify(after.authority.rules), /saved edit:\/w\/a\.ts/);
  assert.doesNotMatch(JSON.stringify(before.authority.rules), /saved edit:\/w\/a\.ts/);
  assert.deepEqual(told, [[savedRule]]);
});
