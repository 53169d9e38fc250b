import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { decideBind, isLoopback } from "./bind.js";

describe("decideBind", () => {
  it("loopback always; anything else only with --expose", () => {
    for (const host of ["127.0.0.1", "127.0.0.2", "localhost", "::1", "[::1]", "LOCALHOST"]) {
      assert.equal(isLoopback(host), true, host);
      assert.deepEqual(decideBind(host, false), { ok: true });
    }
    for (const host of ["0.0.0.0", "::", "192.168.1.5", "example.com", "::ffff:127.0.0.1", "localhost.evil.test"]) {
      assert.equal(isLoopback(host), false, host);
      assert.equal(decideBind(host, false).ok, false, host);
      assert.deepEqual(decideBind(host, true), { ok: true });
    }
  });
});
