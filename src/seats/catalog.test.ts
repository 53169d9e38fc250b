import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { HOLDERS } from "../contracts/decisions.js";
import { findSeat, SEATS } from "./catalog.js";
import { seatGlob } from "./glob.js";

describe("seat catalog", () => {
  it("declares each seat once, with a stage.name id", () => {
    const ids = SEATS.map((s) => s.id);
    assert.equal(new Set(ids).size, ids.length, `duplicate seat ids: ${ids.join(", ")}`);
    for (const id of ids) assert.match(id, /^[a-z]+\.[a-z_]+$/, `seat id ${id} is not stage.name`);
  });

  it("gives every seat a question, known holders, a default and a fail mode", () => {
    for (const seat of SEATS) {
      assert.ok(seat.question.endsWith("?"), `${seat.id}: question should be a question`);
      assert.ok(seat.holders.length > 0, `${seat.id}: no holders`);
      for (const holder of seat.holders) assert.ok(HOLDERS.includes(holder), `${seat.id}: unknown holder ${holder}`);
      assert.ok(seat.default.length > 0, `${seat.id}: no default`);
      assert.ok(["closed", "soft", "open"].includes(seat.fail), `${seat.id}: bad fail mode`);
      if (seat.fail === "open") assert.ok(seat.openBecause.length > 20, `${seat.id}: fails open without a reason`);
    }
  });

  it("finds seats by id and nothing else", () => {
    assert.equal(findSeat("session.target")?.id, "session.target");
    assert.equal(findSeat("config.load")?.holders.join(","), "code");
    assert.equal(findSeat("session.targets"), undefined);
  });
});

describe("seat globs", () => {
  it("matches * across the dot and ? as one character", () => {
    const sessionSeats = seatGlob("session.*");
    assert.ok(sessionSeats("session.target"));
    assert.ok(!sessionSeats("config.load"));
    assert.ok(seatGlob("*.load")("config.load"));
    assert.ok(seatGlob("config.loa?")("config.load"));
    assert.ok(!seatGlob("config.loa?")("config.loads"));
    assert.ok(seatGlob("*")("anything.at_all"));
  });

  it("treats regex characters literally", () => {
    assert.ok(!seatGlob("config.load")("configXload"));
    assert.ok(!seatGlob("(a|b)")("a"));
  });
});
