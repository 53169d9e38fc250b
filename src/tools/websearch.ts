import { z } from "zod";
import type { Tool, ToolResult } from "../contracts/tools.js";
import { type SearchBackend, searchWeb } from "./web/search-backends.js";

/** Hits asked for and shown. */
export const SEARCH_RESULTS = 8;
/** Time for one search. */
export const SEARCH_TIMEOUT_MS = 20_000;

const schema = z.strictObject({
  query: z.string().min(1).describe("What to search the web for"),
});

export type WebsearchInput = z.infer<typeof schema>;

/** Config `web.search`, as loaded. */
export interface SearchConfig {
  provider: "brave" | "tavily" | "native";
  api_key?: string;
  url?: string;
}

/**
 * The websearch tool, through the configured backend. Without one it is still listed — its name
 * is bosun's — but marked unusable, so it is not offered and seat context.tools says why. Every
 * call is the request `web:search`: the query leaves this machine for the search API.
 */
export function websearchTool(search: SearchConfig | undefined): Tool<WebsearchInput> {
  if (search?.provider === "native") return nativeWebsearch;
  const backend: SearchBackend | undefined = search && {
    provider: search.provider,
    ...(search.api_key !== undefined ? { apiKey: search.api_key } : {}),
    ...(search.url !== undefined ? { url: search.url } : {}),
  };
  return {
    name: "websearch",
    description: "Search the web; returns titles, URLs and snippets (fetch a page with webfetch).",
    schema,
    kind: "web",
    ...(backend ? {} : { unusable: "no search backend is configured (config web.search)" }),
    requests: async () => ({ requests: [{ action: "web", resource: "search" }] }),
    async execute(input, ctx): Promise<ToolResult> {
      const shown = JSON.stringify(input.query);
      if (!backend) {
        return {
          output: "websearch is not configured (config web.search).",
          isError: true,
          summary: "websearch (not configured)",
        };
      }
      const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(SEARCH_TIMEOUT_MS)]);
      const found = await searchWeb(backend, input.query, SEARCH_RESULTS, signal);
      const metadata = { provider: backend.provider, endpoint: found.endpoint };
      if ("error" in found) {
        return {
          output: `Search failed: ${found.error}.`,
          isError: true,
          summary: `websearch ${shown} (failed)`,
          metadata,
        };
      }
      if (found.hits.length === 0) {
        return { output: `No results for ${shown}.`, summary: `websearch ${shown} (no results)`, metadata };
      }
      const lines = found.hits.map(
        (hit, index) =>
          `${index + 1}. ${hit.title || hit.url}\n   ${hit.url}${hit.snippet ? `\n   ${hit.snippet}` : ""}`,
      );
      return {
        output: `Results for ${shown} (${backend.provider}):\n\n${lines.join("\n\n")}`,
        summary: `websearch ${shown} (${found.hits.length} results)`,
        metadata: { ...metadata, results: found.hits.length },
      };
    },
  };
}

/** The model provider's own web search, in websearch's name: the provider runs it (seat context.tools decides whether it is sent). */
const nativeWebsearch: Tool<WebsearchInput> = {
  name: "websearch",
  description: "Search the web (run by the model provider).",
  schema,
  kind: "web",
  native: "web_search",
  requests: async () => ({ requests: [{ action: "web", resource: "search" }] }),
  // A provider-run search never comes to bosun to run; a call by this name that does is the model's mistake.
  execute: async () => ({
    output: "websearch runs at the model provider here; it cannot be called as a bosun tool.",
    isError: true,
    summary: "websearch (provider-run)",
  }),
};
