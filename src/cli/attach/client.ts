/** Time any one request to the server may take (not the event stream, which stays open). */
export const REQUEST_TIMEOUT_MS = 30_000;

/** One event of a session's stream as the server sends it (`bosun run --format json`'s line, `seq` its id). */
export type StreamData = Record<string, unknown> & { type: string; seq?: number };

/** A server's API as `bosun attach` uses it: JSON requests with the token, and a session's event stream. */
export class ServerClient {
  constructor(
    readonly base: string,
    private readonly token: string,
  ) {}

  async request(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: Record<string, unknown> | unknown[] }> {
    const response = await fetch(`${this.base}${path}`, {
      method,
      headers: { authorization: `Bearer ${this.token}`, "content-type": "application/json" },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await response.text();
    let parsed: Record<string, unknown> | unknown[];
    try {
      parsed = JSON.parse(text) as Record<string, unknown>;
    } catch {
      parsed = { error: `the server answered ${response.status} with no JSON` };
    }
    return { status: response.status, body: parsed };
  }

  /** A text answer (the ledger as `bosun why` prints it); a JSON error's message is thrown. */
  async text(path: string): Promise<string> {
    const response = await fetch(`${this.base}${path}`, {
      headers: { authorization: `Bearer ${this.token}` },
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const body = await response.text();
    if (response.status === 200) return body;
    let message = `answered ${response.status}`;
    try {
      message = (JSON.parse(body) as { error?: string }).error ?? message;
    } catch {
      // Not JSON: the status says enough.
    }
    throw new Error(message);
  }

  /**
   * Follows a session's events until `signal` aborts, from after `lastId`; a dropped stream is
   * followed again from the last event seen (Last-Event-ID), at most `retries` times in a row.
   */
  async follow(
    session: string,
    onEvent: (data: StreamData) => void,
    signal: AbortSignal,
    options: { lastId?: number; retries?: number; onLost?: (why: string) => void } = {},
  ): Promise<void> {
    let lastId = options.lastId ?? 0;
    let failures = 0;
    while (!signal.aborted) {
      try {
        await this.stream(session, lastId, signal, (data) => {
          failures = 0;
          if (typeof data.seq === "number") lastId = data.seq;
          onEvent(data);
        });
      } catch (error) {
        if (signal.aborted) return;
        failures++;
        if (failures > (options.retries ?? 5)) {
          options.onLost?.(error instanceof Error ? error.message : String(error));
          return;
        }
      }
      if (!signal.aborted) await new Promise((resolve) => setTimeout(resolve, Math.min(2_000, 200 * failures)));
    }
  }

  private async stream(
    session: string,
    lastId: number,
    signal: AbortSignal,
    onEvent: (data: StreamData) => void,
  ): Promise<void> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.token}` };
    if (lastId > 0) headers["last-event-id"] = String(lastId);
    const response = await fetch(`${this.base}/sessions/${session}/events`, { headers, signal });
    if (response.status !== 200 || !response.body) throw new Error(`the event stream answered ${response.status}`);
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error("the event stream ended");
      buffer += decoder.decode(value, { stream: true });
      for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = block
          .split("\n")
          .filter((line) => line.startsWith("data: "))
          .map((line) => line.slice(6))
          .join("\n");
        if (data) onEvent(JSON.parse(data) as StreamData);
      }
    }
  }
}
