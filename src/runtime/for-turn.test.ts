import assert from "node:assert/strict";
import { test } from "node:test";
import type { GateDeps } from "../permission/gate/gate.js";
import { forTurn } from "./open.js";

test("each turn judges with a fresh, frozen copy of the session's gate; the session's is untouched", () => {
  const session = Object.freeze({
    sessionId: "s1",
    auto: false,
    signal: new AbortController().signal,
    record: () => {},
  }) as unknown as Readonly<GateDeps>;
  const prompt = (async () => ({ answer: "once" })) as unknown as NonNullable<GateDeps["prompt"]>;
  const first = forTurn(session, { prompt, signal: new AbortController().signal, record: () => {} });
  const second = forTurn(session, { signal: new AbortController().signal, record: () => {} });

  assert.equal(first.prompt, prompt);
  assert.notEqual(first.signal, session.signal);
  assert.equal(second.prompt, undefined, "a turn that brings no person does not inherit the last turn's");
  assert.notEqual(first, second);
  assert.equal(session.prompt, undefined);
  assert.ok(Object.isFrozen(first) && Object.isFrozen(second));
  assert.throws(() => {
    (first as GateDeps).signal = session.signal;
  }, TypeError);
});
