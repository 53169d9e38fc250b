import { loadConfig } from "../../config/load.js";
import { ASSUMED_LIMITS, CATALOG_DATE, type ModelInfo } from "../../model/catalog.js";
import { listProviders, usable } from "../../model/providers.js";
import { decideModel } from "../../model/select.js";
import { withoutLoosening } from "../../permission/trust/project-trust.js";
import { formatTable } from "../../util/table.js";
import { json, out } from "../output.js";
import { flagLayer, loadForCommand } from "./config.js";
import { untrustedLoosening } from "./untrusted.js";

/**
 * `bosun models`: providers, their models and limits, whether credentials are present and
 * where they come from — never the key — and which model a run here would select.
 */
export function listModels(options: { json?: boolean; model?: string }): void {
  let config = loadForCommand(options);
  // What a run here would use: an untrusted repository's providers, keys and packages left out.
  const untrusted = untrustedLoosening(config);
  if (untrusted)
    config = loadConfig({ cwd: process.cwd(), flags: flagLayer(options), filterProject: withoutLoosening });
  const providers = listProviders(config);
  let selection: { model?: string; holder?: string; rule?: string; error?: string };
  try {
    const decided = decideModel({ config });
    selection = {
      model: decided.answer,
      holder: decided.holder,
      rule: decided.reasons.find((r) => r.decisive)?.rule ?? "",
    };
  } catch (error) {
    selection = { error: (error as Error).message };
  }
  const rows = providers.map((p) => ({
    provider: p.name,
    type: p.type ?? null,
    ...(p.baseURL ? { baseURL: p.baseURL, baseURLSource: p.baseURLSource ?? null } : {}),
    ...(p.envSettings.length ? { environment: p.envSettings } : {}),
    credentials: { present: p.credentials.present, needed: p.credentials.needed, source: p.credentials.source },
    usable: usable(p),
    ...(p.problem ? { problem: p.problem } : {}),
    defaultModel: p.defaultModel ?? null,
    models: Object.entries(p.models).map(([id, info]) => ({ id, ...info })),
  }));
  if (options.json) {
    json({
      selected: selection,
      ...(untrusted ? { untrusted } : {}),
      catalog: { updated: CATALOG_DATE },
      assumedLimits: ASSUMED_LIMITS,
      providers: rows,
    });
    return;
  }
  out(
    selection.model
      ? `selected: ${selection.model} (${selection.holder}: ${selection.rule})`
      : `selected: none — ${selection.error?.split("\n")[0]}`,
  );
  out(
    `catalog of ${CATALOG_DATE}; a model not listed runs with assumed limits (context ${limit(ASSUMED_LIMITS.context)}, output ${limit(ASSUMED_LIMITS.output)}) and no price`,
  );
  if (untrusted) {
    out(
      `not trusted: this repository's config would set ${untrusted.join(", ")}; left out until you trust it (bosun run --trust-project, or yes when the interactive session asks)`,
    );
  }
  for (const p of rows) {
    const state = p.usable ? "ready" : p.problem ? "unusable" : "no key";
    out(
      `\n${p.provider} (${p.type ?? "no type"}${p.baseURL ? `, ${p.baseURL} from ${p.baseURLSource ?? "config"}` : ""}) — ${state}: ${p.problem ?? p.credentials.source}`,
    );
    if (p.environment) out(`  from the environment: ${p.environment.join(", ")}`);
    if (p.models.length === 0) {
      out("  no models listed: any model id can be used, with assumed limits");
      continue;
    }
    const table = formatTable(
      ["  MODEL", "CONTEXT", "OUTPUT", "TOOLS", "IMAGES", "REASONING", "PRICE IN/OUT $/M", "CACHE READ/WRITE $/M"],
      p.models.map((m) => [
        `  ${m.id}${m.id === p.defaultModel ? " (default)" : ""}`,
        limit(m.context),
        limit(m.output),
        typeof m.tools === "string"
          ? m.tools === "none"
            ? "no"
            : m.tools === "native"
              ? "yes"
              : m.tools
          : flag(m.tools),
        flag(m.images),
        flag(m.thinks),
        price(m),
        cachePrice(m),
      ]),
    );
    out(table);
  }
}

const limit = (n: number | undefined) => (n === undefined ? "?" : n.toLocaleString("en-US"));
const flag = (b: boolean | undefined) => (b === undefined ? "?" : b ? "yes" : "no");
const price = (m: ModelInfo) => (m.price ? `${m.price.input} / ${m.price.output}` : "?");
const cachePrice = (m: ModelInfo) => (m.price ? `${m.price.cacheRead ?? "-"} / ${m.price.cacheWrite ?? "-"}` : "?");
