import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { CallbackError, startCallbackServer } from "./oauth-callback.js";

describe("the sign-in callback server", () => {
  it("listens on 127.0.0.1; only /callback with the expected state gives the code", async () => {
    const callback = await startCallbackServer("s1", 5_000);
    try {
      assert.match(callback.redirectUrl, /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
      assert.equal((await fetch(`${callback.redirectUrl}?code=forged&state=other`)).status, 400);
      assert.equal((await fetch(callback.redirectUrl.replace("/callback", "/x?code=c&state=s1"))).status, 400);
      assert.equal((await fetch(`${callback.redirectUrl}?code=good&state=s1`)).status, 200);
      assert.equal(await callback.code, "good");
    } finally {
      await callback.close();
    }
  });

  it("an error from the authorization server is the reason", async () => {
    const callback = await startCallbackServer("s2", 5_000);
    try {
      await fetch(`${callback.redirectUrl}?error=access_denied&error_description=nope&state=s2`);
      await assert.rejects(callback.code, /the authorization server said access_denied: nope/);
    } finally {
      await callback.close();
    }
  });

  it("bounded: nobody coming back rejects after the wait", async () => {
    const callback = await startCallbackServer("s3", 50);
    try {
      await assert.rejects(
        callback.code,
        (error) => error instanceof CallbackError && /within 0 s/.test(error.message),
      );
    } finally {
      await callback.close();
    }
  });
});
