import { z } from "zod";
import type { CallDescription } from "../contracts/requests.js";
import type { Tool, ToolContext, ToolResult } from "../contracts/tools.js";
import { formatBytes } from "./bound.js";
import type { FetchFormat } from "./web/content.js";
import { type Followed, follow, hostOf } from "./web/follow.js";

/** Time to connect to one address (TCP, then TLS). */
export const CONNECT_TIMEOUT_MS = 10_000;
/** Time for the whole fetch, redirects included. */
export const TOTAL_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_BYTES = 1024 * 1024;
export const MAX_MAX_BYTES = 10 * 1024 * 1024;
/** How much of an error page's text the model is shown. */
const ERROR_BODY_CHARS = 2000;

const schema = z.strictObject({
  url: z.string().describe("http(s) URL"),
  format: z.enum(["markdown", "text", "html"]).optional().describe("How HTML is returned (default markdown)"),
  max_bytes: z
    .int()
    .positive()
    .max(MAX_MAX_BYTES)
    .optional()
    .describe(`Most bytes of the body read (default ${DEFAULT_MAX_BYTES})`),
});

export type WebfetchInput = z.infer<typeof schema>;

/** The call's one request, `web:<host>`; a URL that is not http(s) is a problem, never allowed. */
export function webfetchRequests(url: string): CallDescription {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { requests: [], problem: `"${url}" is not a URL` };
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    return { requests: [], problem: `only http and https URLs are fetched, not ${parsed.protocol}` };
  }
  return { requests: [{ action: "web", resource: hostOf(parsed) }] };
}

export const webfetchTool: Tool<WebfetchInput> = {
  name: "webfetch",
  description: "Fetch an http(s) URL. HTML comes back as markdown; other text as is; binary is refused.",
  schema,
  // It changes no file: a read-only agent may use it, each call judged as web:<host> all the same.
  kind: "web",
  requests: async (input) => webfetchRequests(input.url),
  async execute(input, ctx) {
    const fail = (output: string, why: string): ToolResult => ({
      output,
      isError: true,
      summary: `webfetch ${input.url} (${why})`,
    });
    const described = webfetchRequests(input.url);
    if (described.problem) return fail(`Not fetched: ${described.problem}.`, "not a web URL");
    const maxBytes = input.max_bytes ?? DEFAULT_MAX_BYTES;
    const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(TOTAL_TIMEOUT_MS)]);
    const followed = await follow(
      new URL(input.url),
      { connectMs: CONNECT_TIMEOUT_MS, maxBytes, signal },
      ctx.web ? { web: ctx.web } : {},
    );
    if (followed.kind !== "response") return notFetched(followed, ctx, fail);
    // turndown and its DOM load with the first page fetched, not with every run.
    const { renderBody } = await import("./web/content.js");
    const type = headerText(followed.response.headers["content-type"]);
    const rendered = renderBody(followed.response.body, type, input.format ?? "markdown", followed.url.href);
    return fetched(followed, rendered, input.format ?? "markdown", maxBytes, fail);
  },
};

function notFetched(
  followed: Exclude<Followed, { kind: "response" }>,
  ctx: ToolContext,
  fail: (output: string, why: string) => ToolResult,
): ToolResult {
  const metadata = { url: followed.url.href, hops: followed.hops };
  if (followed.kind === "redirect") {
    return {
      output: `${followed.url.href} redirected to ${followed.to.href}, not followed: ${followed.reason}. To fetch it, call webfetch with that URL (it will be judged as its own request).`,
      summary: `webfetch ${followed.url.href} (redirected to ${followed.to.host})`,
      metadata: { ...metadata, redirect: followed.to.href },
    };
  }
  if (followed.kind === "refused") {
    return { ...fail(`Not fetched: ${followed.reason}.`, "refused"), metadata };
  }
  const timedOut = !ctx.signal.aborted && /aborted|timeout/i.test(followed.reason);
  const reason = timedOut ? `no complete answer within ${TOTAL_TIMEOUT_MS / 1000} s` : followed.reason;
  return { ...fail(`Fetching ${followed.url.href} failed: ${reason}.`, timedOut ? "timed out" : "failed"), metadata };
}

function fetched(
  followed: Extract<Followed, { kind: "response" }>,
  rendered: { text: string; type: string } | { binary: string },
  format: FetchFormat,
  maxBytes: number,
  fail: (output: string, why: string) => ToolResult,
): ToolResult {
  const { response, url } = followed;
  const type = headerText(response.headers["content-type"]);
  const status = `${response.status}${response.statusText ? ` ${response.statusText}` : ""}`;
  const metadata = {
    url: url.href,
    address: followed.address,
    status: response.status,
    contentType: type,
    bytes: response.body.length,
    truncated: response.truncated,
    ...(followed.hops.length > 1 ? { hops: followed.hops } : {}),
  };
  if (response.status >= 400) {
    const page = "text" in rendered ? `\n\n${rendered.text.slice(0, ERROR_BODY_CHARS)}` : "";
    return { ...fail(`HTTP ${status} from ${url.href}.${page}`, `HTTP ${response.status}`), metadata };
  }
  if ("binary" in rendered) {
    return {
      ...fail(
        `Not shown: ${url.href} is ${rendered.binary} (${formatBytes(response.body.length)}${response.truncated ? "+" : ""}), not text. webfetch returns text only.`,
        "binary",
      ),
      metadata,
    };
  }
  const lines = [
    `URL: ${url.href}${followed.hops.length > 1 ? ` (redirected from ${followed.hops[0]})` : ""}`,
    `Status: ${status} · ${rendered.type}${format !== "html" && /html/.test(rendered.type) ? ` as ${format}` : ""}`,
  ];
  if (response.truncated) {
    lines.push(
      `[Truncated: only the first ${formatBytes(maxBytes)} of the body were read (max_bytes ${maxBytes}); the rest was not fetched.]`,
    );
  }
  const size = `${formatBytes(response.body.length)}${response.truncated ? ", truncated" : ""}`;
  return {
    output: `${lines.join("\n")}\n\n${rendered.text}`,
    summary: `webfetch ${url.href} (${response.status}, ${size})`,
    metadata,
  };
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
