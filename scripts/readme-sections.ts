import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { DEFAULTS, ENTRY_DEFAULTS, ENTRY_PLACES } from "../src/config/defaults.js";
import { formatKey, getAt } from "../src/config/keypath.js";
import { ENV_KEYS } from "../src/config/schema.js";
import { allKnownKeys, descriptionAt, schemaAt } from "../src/config/schema-walk.js";
import { DEFAULT_MODE } from "../src/contracts/modes.js";
import { DEFAULT_PERMISSION } from "../src/permission/rules/defaults.js";
import { MODES } from "../src/permission/rules/modes.js";
import { SEATS } from "../src/seats/catalog.js";

/**
 * The README states defaults in four tables — seats, config keys, permission modes and the
 * built-in permission rules. Both are generated here
 * from the code; `npm run readme` rewrites them and a test fails when they are stale.
 */
export const README = fileURLToPath(new URL("../README.md", import.meta.url));

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");

export function seatsTable(): string {
  const rows = SEATS.map(
    (s) =>
      `| \`${s.id}\` | ${cell(s.question)} | ${s.holders.join(", ")} | ${cell(s.default)} | ${s.fail} | ${
        s.config.map((k) => `\`${k}\``).join(", ") || "—"
      } |`,
  );
  return ["| seat | question | holders | default | fails | config |", "|---|---|---|---|---|---|", ...rows].join("\n");
}

export function configTable(): string {
  const rows = allKnownKeys().map((path) => {
    const key = path.map((p) => (p === "*" ? "<name>" : p)).join(".");
    const concrete = path.map((p) => (p === "*" ? "x" : p));
    const node = schemaAt(concrete);
    const def = node?._zod.def as Def | undefined;
    const type = typeCell(def);
    const fallback = getAt(DEFAULTS, path) ?? entryDefaultAt(path);
    const env = ENV_KEYS.find((e) => formatKey(e.path) === formatKey(path));
    // A free-keyed map's values take the map's own description.
    const description = descriptionAt(concrete) ?? descriptionAt(concrete.slice(0, -1)) ?? "";
    return `| \`${key}\` | ${type} | ${fallback === undefined ? "—" : `\`${JSON.stringify(fallback)}\``} | ${env ? `\`${env.variable}\`` : "—"} | ${cell(description)} |`;
  });
  return ["| key | type | default | env | meaning |", "|---|---|---|---|---|", ...rows].join("\n");
}

type Def = { type?: string; format?: string; entries?: Record<string, string>; options?: { _zod: { def: Def } }[] };

/** A key's type as the table shows it: an enum's values, a union's members (boolean | native | …). */
function typeCell(def: Def | undefined): string {
  if (def?.type === "enum") return Object.values(def.entries ?? {}).join(" \\| ");
  if (def?.type === "union") return (def.options ?? []).map((o) => typeCell(o._zod.def)).join(" \\| ");
  return def?.format === "safeint" ? "integer" : (def?.type ?? "");
}

/** The default of a key inside a map's or list's entries (ENTRY_DEFAULTS), by where the entries sit. */
function entryDefaultAt(path: readonly string[]): unknown {
  for (const [kind, places] of Object.entries(ENTRY_PLACES) as [keyof typeof ENTRY_DEFAULTS, string[][]][]) {
    const entry: Record<string, unknown> = ENTRY_DEFAULTS[kind];
    const key = path[path.length - 1] as string;
    const inPlace = places.some((place) => formatKey(place) === formatKey(path.slice(0, -1)));
    if (inPlace && Object.hasOwn(entry, key)) return entry[key];
  }
  return undefined;
}

export function modesTable(): string {
  const rows = Object.values(MODES).map(
    (m) => `| \`${m.name}\`${m.name === DEFAULT_MODE ? " (default)" : ""} | ${cell(m.summary)} |`,
  );
  return ["| mode | what runs without asking |", "|---|---|", ...rows].join("\n");
}

export function permissionDefaultsTable(): string {
  const rows = Object.entries(DEFAULT_PERMISSION).map(([action, rules]) => {
    const text =
      typeof rules === "string"
        ? `\`${rules}\``
        : Object.entries(rules)
            .map(([pattern, effect]) => `\`${pattern}\` → \`${effect}\``)
            .join(", ");
    return `| \`${action}\` | ${cell(text)} |`;
  });
  return ["| action | built-in rules (the last match wins) |", "|---|---|", ...rows].join("\n");
}

export function sections(): Record<string, string> {
  return {
    seats: seatsTable(),
    config: configTable(),
    modes: modesTable(),
    "permission-defaults": permissionDefaultsTable(),
  };
}

/** Replaces the text between `<!-- NAME:start -->` and `<!-- NAME:end -->` for each section. */
export function render(readme: string): string {
  let out = readme;
  for (const [name, body] of Object.entries(sections())) {
    const pattern = new RegExp(`(<!-- ${name}:start -->)[\\s\\S]*?(<!-- ${name}:end -->)`);
    if (!pattern.test(out)) throw new Error(`README has no ${name} section markers`);
    out = out.replace(pattern, `$1\n${body}\n$2`);
  }
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(README, render(readFileSync(README, "utf8")));
  console.log(`updated ${README}`);
}
