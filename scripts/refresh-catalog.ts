/**
 * Rewrites src/model/catalog-data.json from models.dev's api.json (the format opencode reads:
 * provider → models → {limit, cost, modalities, tool_call, reasoning}), keeping only the
 * providers bosun has built in, its service types (azure) and any the data file already holds, and
 * today's date.
 *
 *   npx tsx scripts/refresh-catalog.ts [--from <file|url>] [--out <file>]
 *   npx biome format --write src/model/catalog-data.json   (the committed file is biome's layout)
 *
 * A response that is not that shape, or that has none of bosun's providers, is refused and the
 * data file is left as it was (exit 1); the file is only ever replaced whole (written atomically).
 */
import { readFileSync } from "node:fs";
import { BUILTIN_PROVIDERS, SERVICE_TYPES } from "../src/model/catalog.js";
import { type CatalogData, CatalogDataSchema, type CatalogEntry } from "../src/model/catalog-schema.js";
import { writeFileAtomic } from "../src/util/safe-write.js";

export const DEFAULT_SOURCE = "https://models.dev/api.json";
export const DEFAULT_OUT = "src/model/catalog-data.json";
/** Bosun's provider names where models.dev names them otherwise. */
const MODELS_DEV_NAME: Record<string, string> = { bedrock: "amazon-bedrock", vertex: "google-vertex" };
/** Every wait bounded: models.dev answers in well under a second. */
const FETCH_TIMEOUT_MS = 30_000;

export class RefusedResponse extends Error {}

/** Reads the source: an http(s) URL is fetched, anything else is a file path. */
export async function readSource(from: string): Promise<string> {
  if (!/^https?:\/\//.test(from)) return readFileSync(from, "utf8");
  const response = await fetch(from, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
  if (!response.ok) throw new RefusedResponse(`${from} answered ${response.status} ${response.statusText}`);
  return response.text();
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Only the fields bosun reads, so a new field upstream changes nothing here. */
function pick(model: Record<string, unknown>): CatalogEntry {
  const entry: Record<string, unknown> = {};
  for (const key of ["limit", "cost", "modalities", "tool_call", "reasoning"] as const) {
    if (model[key] !== undefined) entry[key] = model[key];
  }
  if (isObject(entry.limit)) {
    const { context, output } = entry.limit;
    entry.limit = { context, output };
  }
  if (isObject(entry.cost)) {
    const { input, output, cache_read, cache_write } = entry.cost;
    entry.cost = Object.fromEntries(
      Object.entries({ input, output, cache_read, cache_write }).filter(([, v]) => v !== undefined),
    );
  }
  if (isObject(entry.modalities)) entry.modalities = { input: entry.modalities.input, output: entry.modalities.output };
  return entry as CatalogEntry;
}

/**
 * The new data file's content from models.dev's JSON text, or RefusedResponse naming what is
 * wrong. `keep` are bosun's provider names; `today` is an ISO date.
 */
export function buildCatalog(
  text: string,
  options: { keep: readonly string[]; today: string; source: string },
): CatalogData {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new RefusedResponse(`not JSON: ${(error as Error).message}`);
  }
  if (!isObject(parsed)) throw new RefusedResponse("not a JSON object of providers");
  const providers: CatalogData["providers"] = {};
  for (const name of options.keep) {
    const upstream = parsed[MODELS_DEV_NAME[name] ?? name];
    if (upstream === undefined) continue;
    if (!isObject(upstream) || !isObject(upstream.models))
      throw new RefusedResponse(`provider ${name} has no "models" object`);
    const models: Record<string, CatalogEntry> = {};
    for (const [id, model] of Object.entries(upstream.models)) {
      if (!isObject(model)) throw new RefusedResponse(`provider ${name} model ${id} is not an object`);
      models[id] = pick(model);
    }
    providers[name] = { models };
  }
  if (Object.keys(providers).length === 0) {
    throw new RefusedResponse(`none of bosun's providers (${options.keep.join(", ")}) is in the response`);
  }
  const data = { updated: options.today, source: options.source, providers };
  const checked = CatalogDataSchema.safeParse(data);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new RefusedResponse(`not the expected shape at ${issue?.path.join(".")}: ${issue?.message}`);
  }
  return checked.data;
}

/**
 * Which providers to keep: bosun's built-ins, the service types whose catalog any provider of the
 * type reads (azure has no built-in provider), and any the current file has.
 */
export function providersToKeep(out: string): string[] {
  const names = new Set<string>([...Object.keys(BUILTIN_PROVIDERS), ...SERVICE_TYPES]);
  try {
    const current = JSON.parse(readFileSync(out, "utf8")) as { providers?: Record<string, unknown> };
    for (const name of Object.keys(current.providers ?? {})) names.add(name);
  } catch {
    // No file yet, or an unreadable one: it is replaced whole.
  }
  return [...names];
}

export async function refreshCatalog(options: { from: string; out: string; today?: string }): Promise<CatalogData> {
  const text = await readSource(options.from);
  const data = buildCatalog(text, {
    keep: providersToKeep(options.out),
    today: options.today ?? new Date().toISOString().slice(0, 10),
    source: `${options.from} (models.dev format), cut to bosun's providers by scripts/refresh-catalog.ts`,
  });
  writeFileAtomic(options.out, `${JSON.stringify(data, null, 2)}\n`);
  return data;
}

function parseArgs(argv: string[]): { from: string; out: string } {
  const args = { from: DEFAULT_SOURCE, out: DEFAULT_OUT };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    if ((flag === "--from" || flag === "--out") && value !== undefined && !value.startsWith("--")) {
      args[flag === "--from" ? "from" : "out"] = value;
      i++;
    } else {
      process.stderr.write(
        `refresh-catalog: unknown or incomplete flag ${flag}\nusage: refresh-catalog [--from <file|url>] [--out <file>]\n`,
      );
      process.exit(2);
    }
  }
  return args;
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const args = parseArgs(process.argv.slice(2));
  refreshCatalog(args).then(
    (data) => {
      const counts = Object.entries(data.providers).map(([name, p]) => `${name} ${Object.keys(p.models).length}`);
      process.stdout.write(`wrote ${args.out} (${data.updated}): ${counts.join(", ")} models\n`);
    },
    (error: Error) => {
      process.stderr.write(`refresh-catalog: refused, ${args.out} unchanged: ${error.message}\n`);
      process.exit(1);
    },
  );
}
