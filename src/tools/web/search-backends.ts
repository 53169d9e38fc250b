/** One search hit, as every backend's answer is read. */
export interface SearchHit {
  title: string;
  url: string;
  snippet: string;
}

export interface SearchBackend {
  provider: "brave" | "tavily";
  apiKey?: string;
  /** The endpoint, in place of the provider's own. */
  url?: string;
}

/** The providers' own endpoints. */
export const SEARCH_ENDPOINTS = {
  brave: "https://api.search.brave.com/res/v1/web/search",
  tavily: "https://api.tavily.com/search",
} as const;

/** Most bytes of a backend's answer read: a search answer is a few kilobytes. */
const MAX_ANSWER_BYTES = 2 * 1024 * 1024;

/**
 * Asks the configured search API for `query` and reads its hits, or says why not (the HTTP
 * status and the API's own message, a network error, an answer that is not the API's shape).
 */
export async function searchWeb(
  backend: SearchBackend,
  query: string,
  count: number,
  signal: AbortSignal,
): Promise<{ hits: SearchHit[]; endpoint: string } | { error: string; endpoint: string }> {
  const endpoint = backend.url ?? SEARCH_ENDPOINTS[backend.provider];
  let response: Response;
  try {
    response = await fetch(...request(backend, endpoint, query, count, signal));
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const why = signal.aborted ? "no answer in time" : (cause?.code ?? cause?.message ?? String(error));
    return { error: `${backend.provider} search could not be reached (${why})`, endpoint };
  }
  const text = await readCapped(response);
  if (!response.ok) {
    const message = text.slice(0, 500).trim();
    return {
      error: `${backend.provider} search answered HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ""}${message ? `: ${message}` : ""}`,
      endpoint,
    };
  }
  try {
    return { hits: readHits(backend.provider, JSON.parse(text)).slice(0, count), endpoint };
  } catch {
    return { error: `${backend.provider} search answered something that is not its JSON`, endpoint };
  }
}

function request(
  backend: SearchBackend,
  endpoint: string,
  query: string,
  count: number,
  signal: AbortSignal,
): [string, RequestInit] {
  if (backend.provider === "brave") {
    const url = new URL(endpoint);
    url.searchParams.set("q", query);
    url.searchParams.set("count", String(count));
    const headers = { accept: "application/json", "x-subscription-token": backend.apiKey ?? "" };
    return [url.href, { headers, signal, redirect: "error" }];
  }
  return [
    endpoint,
    {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${backend.apiKey ?? ""}` },
      body: JSON.stringify({ query, max_results: count }),
      signal,
      redirect: "error",
    },
  ];
}

interface BraveAnswer {
  web?: { results?: Array<{ title?: string; url?: string; description?: string }> };
}
interface TavilyAnswer {
  results?: Array<{ title?: string; url?: string; content?: string }>;
}

function readHits(provider: SearchBackend["provider"], answer: unknown): SearchHit[] {
  if (provider === "brave") {
    const results = (answer as BraveAnswer).web?.results ?? [];
    return results.map((r) => ({ title: r.title ?? "", url: r.url ?? "", snippet: stripTags(r.description ?? "") }));
  }
  const results = (answer as TavilyAnswer).results;
  if (!Array.isArray(results)) throw new Error("no results");
  return results.map((r) => ({ title: r.title ?? "", url: r.url ?? "", snippet: r.content ?? "" }));
}

/** Brave marks the query's words in its snippets with <strong>. */
function stripTags(text: string): string {
  return text.replace(/<\/?[a-z][^>]*>/gi, "");
}

async function readCapped(response: Response): Promise<string> {
  if (!response.body) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= MAX_ANSWER_BYTES) break;
  }
  return Buffer.concat(chunks).subarray(0, MAX_ANSWER_BYTES).toString("utf8");
}
