import assert from "node:assert/strict";

/**
 * The last frame once it matches: Ink draws after a key or an event asynchronously, and on a
 * loaded machine later than any fixed pause. Fails with the frame when it never matches in time.
 */
export async function until(
  ui: { lastFrame: () => string | undefined },
  pattern: RegExp,
  message?: string,
): Promise<string> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const frame = ui.lastFrame() ?? "";
    if (pattern.test(frame)) return frame;
    if (Date.now() > deadline) {
      assert.match(frame, pattern, message);
      return frame;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
