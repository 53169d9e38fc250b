/**
 * The tool a call names. Exact names first; then only unambiguous repairs: a `functions.` or
 * `tool(s).` prefix some models add, and letter case. Anything else is an unknown tool.
 */
export function resolveToolName(
  name: string,
  available: readonly string[],
): { name: string; repairedFrom?: string } | undefined {
  if (available.includes(name)) return { name };
  const stripped = name.replace(/^(functions|tools?)\./i, "");
  // A prefix alone is unambiguous, even where tools differ only in case.
  if (stripped !== name && available.includes(stripped)) return { name: stripped, repairedFrom: name };
  const matches = available.filter((candidate) => candidate.toLowerCase() === stripped.toLowerCase());
  if (matches.length === 1) return { name: matches[0] as string, repairedFrom: name };
  return undefined;
}
