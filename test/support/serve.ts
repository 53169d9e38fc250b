import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type Scenario, waitFor } from "./scenario.js";

/**
 * `bosun serve --port 0` in the scenario's home, driven as a client would: where it listens, its
 * token (printed on first start, else read from the data folder), JSON calls with it, and a stop.
 */
export async function startServe(s: Scenario, flags: string[] = []) {
  const { child, result } = s.spawn(["serve", "--port", "0", ...flags]);
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const base = await waitFor(() => /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)?.[1], 15_000);
  await waitFor(() => (/every request needs/.test(stdout) ? true : undefined));
  const file = join(s.ws.home, "data", "server", "token");
  const token = /: (\S{43})$/m.exec(stdout)?.[1] ?? readFileSync(file, "utf8").trim();
  const auth = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = auth) => {
    const answer = await fetch(`${base}${path}`, {
      method,
      headers,
      ...(body !== undefined ? { body: typeof body === "string" ? body : JSON.stringify(body) } : {}),
    });
    const text = await answer.text();
    let parsed: Record<string, unknown> = {};
    try {
      parsed = JSON.parse(text) as Record<string, unknown>;
    } catch {
      parsed = { raw: text };
    }
    return { status: answer.status, body: parsed, text };
  };
  const stop = async () => {
    child.kill("SIGTERM");
    return result;
  };
  return { base, token, auth, call, stop, child, result, stdout: () => stdout, stderr: () => stderr };
}

export type Serve = Awaited<ReturnType<typeof startServe>>;

export interface SseEvent {
  id?: string;
  event?: string;
  data: Record<string, unknown> & { type: string; seq?: number };
}

/**
 * Follows a session's event stream: every event so far, a wait for one, whether it ended. `strict`:
 * the answer must be a 200 event stream, and a failure (any but the stream's own end) is thrown by
 * close(); otherwise failures are only seen as `status()` and `ended()`.
 */
export function follow(url: string, token: string, options: { lastEventId?: string; strict?: boolean } = {}) {
  const controller = new AbortController();
  const seen: SseEvent[] = [];
  let ended = false;
  let status = 0;
  let failure: unknown;
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (options.lastEventId !== undefined) headers["last-event-id"] = options.lastEventId;
  const done = (async () => {
    const response = await fetch(url, { headers, signal: controller.signal });
    status = response.status;
    if (options.strict) {
      assert.equal(response.status, 200);
      assert.match(response.headers.get("content-type") ?? "", /text\/event-stream/);
    }
    if (!response.body) return;
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event: Partial<SseEvent> = {};
        for (const line of block.split("\n")) {
          if (line.startsWith("id: ")) event.id = line.slice(4);
          else if (line.startsWith("event: ")) event.event = line.slice(7);
          else if (line.startsWith("data: ")) event.data = JSON.parse(line.slice(6));
        }
        if (event.data) seen.push(event as SseEvent);
      }
    }
  })()
    .catch((error: unknown) => {
      // Kept for close(), not thrown unhandled: a stream the server ended (it stopped) is no failure of a test that is done.
      if (!controller.signal.aborted) failure = error;
    })
    .finally(() => {
      ended = true;
    });
  return {
    seen,
    status: () => status,
    ended: () => ended,
    next: (type: string, after = 0, ms = 20_000) =>
      waitFor(() => seen.find((e, i) => i >= after && e.data.type === type), ms),
    close: async () => {
      controller.abort();
      await done;
      if (options.strict && failure) throw failure;
    },
  };
}
