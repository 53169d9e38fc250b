import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { decideBind, decideRequestPlace, isLoopback } from "./bind.js";

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

describe("decideRequestPlace", () => {
  it("bound on loopback: a Host naming loopback, with or without its port; any other name is refused", () => {
    for (const host of ["127.0.0.1:4096", "localhost:4096", "[::1]:4096", "127.0.0.1", "LOCALHOST:1"]) {
      assert.deepEqual(decideRequestPlace({ host, origin: undefined }, true), { ok: true }, host);
    }
    for (const host of [
      "evil.example:4096",
      "localhost.:4096",
      "127.0.0.1.nip.io",
      "0.0.0.0:4096",
      "",
      "a b",
      "[::1",
    ]) {
      assert.equal(decideRequestPlace({ host, origin: undefined }, true).ok, false, host);
    }
    assert.deepEqual(decideRequestPlace({ host: "evil.example", origin: undefined }, false), { ok: true });
  });

  it("an Origin is this server's own or refused (null, another port, another scheme, another name)", () => {
    const host = "127.0.0.1:4096";
    assert.deepEqual(decideRequestPlace({ host, origin: "http://127.0.0.1:4096" }, true), { ok: true });
    for (const origin of ["null", "http://127.0.0.1:4097", "https://127.0.0.1:4096", "http://evil.example", ""]) {
      assert.equal(decideRequestPlace({ host, origin }, true).ok, false, origin);
      assert.equal(decideRequestPlace({ host: "0.0.0.0:1", origin }, false).ok, false, origin);
    }
  });
});
