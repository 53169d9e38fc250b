import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { age, clockTime, localTime } from "./time.js";

const AT = Date.UTC(2026, 11, 2, 23, 50); // 2026-12-02 23:50 UTC

describe("localTime and clockTime", () => {
  it("show the moment in the given time zone, a day boundary crossed where it is crossed", () => {
    assert.equal(localTime(AT, "UTC"), "2026-12-02 23:50");
    assert.equal(localTime(AT, "Asia/Kolkata"), "2026-12-03 05:20");
    assert.equal(localTime(AT, "America/New_York"), "2026-12-02 18:50");
    assert.equal(clockTime(AT, "Asia/Kolkata"), "05:20");
    assert.equal(clockTime(Date.UTC(2026, 0, 1, 0, 5), "UTC"), "00:05");
  });
});

describe("localTime without a zone: the machine's own", () => {
  it("agrees with Intl in the zone TZ names, across a day and a daylight-saving boundary", () => {
    const saved = process.env.TZ;
    try {
      for (const zone of ["UTC", "Asia/Kolkata", "America/New_York", "Europe/Berlin"]) {
        process.env.TZ = zone;
        for (const at of [AT, Date.UTC(2026, 2, 29, 0, 59), Date.UTC(2026, 2, 29, 1, 1), Date.UTC(2026, 6, 1, 12, 0)]) {
          assert.equal(localTime(at), localTime(at, zone), `${zone} ${new Date(at).toISOString()}`);
          assert.equal(clockTime(at), clockTime(at, zone));
        }
      }
    } finally {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    }
  });
});

describe("age", () => {
  it("says how long ago in the unit a person would use", () => {
    const now = AT;
    assert.equal(age(now - 20_000, now), "just now");
    assert.equal(age(now + 90_000, now), "just now");
    assert.equal(age(now - 3 * 60_000 - 5_000, now), "3 min ago");
    assert.equal(age(now - 59 * 60_000, now), "59 min ago");
    assert.equal(age(now - 5 * 3_600_000, now), "5 h ago");
    assert.equal(age(now - 30 * 3_600_000, now), "1 day ago");
    assert.equal(age(now - 9 * 86_400_000, now), "9 days ago");
  });
});
