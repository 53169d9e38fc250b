import assert from "node:assert/strict";
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { bearerMatches, serverToken } from "./token.js";

describe("the server's token", () => {
  it("is made once, owner-only, then kept; one others can read, or a damaged one, is replaced", () => {
    const data = mkdtempSync(join(tmpdir(), "bosun-token-"));
    try {
      const first = serverToken(data);
      assert.equal(first.created, true);
      assert.match(first.token, /^[A-Za-z0-9_-]{43}$/);
      assert.equal(statSync(first.file).mode & 0o777, 0o600);
      assert.equal(statSync(join(data, "server")).mode & 0o777, 0o700);
      const second = serverToken(data);
      assert.deepEqual([second.created, second.token], [false, first.token]);
      chmodSync(first.file, 0o644);
      const readable = serverToken(data);
      assert.equal(readable.created, true);
      assert.notEqual(readable.token, first.token);
      assert.equal(statSync(first.file).mode & 0o777, 0o600);
      writeFileSync(first.file, "short\n", { mode: 0o600 });
      assert.equal(serverToken(data).created, true);
      assert.match(readFileSync(first.file, "utf8"), /^[A-Za-z0-9_-]{43}\n$/);
    } finally {
      rmSync(data, { recursive: true, force: true });
    }
  });

  it("matches only `Bearer <token>` (the scheme in any case), the token exactly", () => {
    const token = "a".repeat(43);
    assert.equal(bearerMatches(`Bearer ${token}`, token), true);
    assert.equal(bearerMatches(`bearer ${token}`, token), true);
    for (const header of [
      undefined,
      "",
      token,
      `Bearer ${token} `,
      `Bearer ${token}a`,
      `Bearer ${"a".repeat(42)}`,
      `Basic ${token}`,
      `Bearer ${"A".repeat(43)}`,
    ]) {
      assert.equal(bearerMatches(header, token), false, String(header));
    }
  });
});
