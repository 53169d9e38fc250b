/**
 * What the processes bosun starts — tool commands and hooks — may see of its environment:
 * never the keys bosun itself reads, nor anything named like a credential.
 */

/** Provider keys bosun itself reads: never passed to tools. */
export const PROVIDER_KEY_VARIABLES: readonly string[] = [
  "ANTHROPIC_API_KEY",
  "OPENAI_API_KEY",
  "GOOGLE_GENERATIVE_AI_API_KEY",
  "GEMINI_API_KEY",
  "OPENROUTER_API_KEY",
];
/** Names that look like credentials: withheld from tools unless allowed below. */
const SECRET_NAME = /(_API_KEY|_ACCESS_KEY|_SECRET|_TOKEN)$/i;
/**
 * Names matching SECRET_NAME that are nonetheless passed to tools. Empty on purpose: every common name
 * with these endings is a credential (GITHUB_TOKEN, NPM_TOKEN, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN,
 * CI_JOB_TOKEN, ...), and withholding one by mistake costs a command that fails visibly, while passing
 * one by mistake puts a secret into the session log and the next model request.
 */
const NOT_SECRET: ReadonlySet<string> = new Set<string>();
/** Further names withheld, set by setWithheldVariables (the variables the config reads). */
let configWithheld: ReadonlySet<string> = new Set<string>();

/**
 * Withholds `names` from every process bosun starts from now on, besides the provider keys and
 * credential-looking names it always withholds. Replaces the names given by the previous call; `[]` clears them.
 * For the variables the configuration reads through `{env:NAME}` (they may hold keys under any name).
 */
export function setWithheldVariables(names: string[]): void {
  configWithheld = new Set(names);
}

/** Whether a variable named `name` is kept out of the tools' environment. */
export function isWithheld(name: string): boolean {
  if (PROVIDER_KEY_VARIABLES.includes(name) || configWithheld.has(name)) return true;
  return SECRET_NAME.test(name) && !NOT_SECRET.has(name);
}

/** The environment of the processes bosun starts (tools, hooks): `env` without withheld variables, with `BOSUN_AGENT=1`. */
export function toolEnvironment(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) if (!isWithheld(name)) out[name] = value;
  // CDPATH would make `cd src` go elsewhere than the shell analysis judged.
  delete out.CDPATH;
  out.BOSUN_AGENT = "1";
  return out;
}

/** The withheld variables, set in `env`, that `command` names (in order of first mention). */
export function withheldMentions(command: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const names = new Set(command.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? []);
  return [...names].filter((name) => env[name] !== undefined && isWithheld(name));
}
