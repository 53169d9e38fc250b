import { z } from "zod";

/**
 * The reviewer's findings. The reviewer answers with one JSON object (optionally in a ```json
 * fence) validated here with zod — chosen over a `report_finding` tool because it needs no tool
 * only one agent is offered, and an answer that does not parse fails closed: it is asked once
 * more, then the review fails (exit 1), never "no findings".
 */
export const SEVERITIES = ["info", "low", "medium", "high", "critical"] as const;
export type Severity = (typeof SEVERITIES)[number];

const FindingSchema = z.strictObject({
  file: z.string().min(1),
  line: z.int().min(0).nullable().optional(),
  severity: z.enum(SEVERITIES),
  text: z.string().min(1),
});

const AnswerSchema = z.strictObject({ findings: z.array(FindingSchema) });

export type Finding = z.infer<typeof FindingSchema>;

/** The severity flag's value, or why not. */
export function parseSeverity(value: string): Severity | undefined {
  return (SEVERITIES as readonly string[]).includes(value) ? (value as Severity) : undefined;
}

/** Whether a finding's severity reaches the threshold. */
export function reaches(severity: Severity, threshold: Severity): boolean {
  return SEVERITIES.indexOf(severity) >= SEVERITIES.indexOf(threshold);
}

/**
 * The findings in the reviewer's last text: the whole text as JSON, else the last ```json fence,
 * else the outermost {...}. An answer that fits none, or not the schema, is an error naming why.
 */
export function parseFindings(text: string): { findings: Finding[] } | { error: string } {
  const candidates = [text.trim()];
  const fences = [...text.matchAll(/```(?:json)?\s*\n([\s\S]*?)```/g)].map((m) => (m[1] ?? "").trim());
  candidates.push(...fences.reverse());
  const first = text.indexOf("{");
  const last = text.lastIndexOf("}");
  if (first >= 0 && last > first) candidates.push(text.slice(first, last + 1));
  let why = "no JSON object in the answer";
  for (const candidate of candidates) {
    let value: unknown;
    try {
      value = JSON.parse(candidate);
    } catch {
      continue;
    }
    const parsed = AnswerSchema.safeParse(value);
    if (parsed.success) return { findings: parsed.data.findings };
    why = parsed.error.issues
      .slice(0, 3)
      .map((issue) => `${issue.path.join(".") || "(answer)"}: ${issue.message}`)
      .join("; ");
  }
  return { error: why };
}

/** The reviewer's instructions and the diff, as the turn's message. */
export function reviewPrompt(diff: string, what: string): string {
  const fence = "`".repeat(Math.max(3, ...[...diff.matchAll(/`{3,}/g)].map((m) => m[0].length + 1)));
  return [
    `Review the following changes (${what}). You are read-only: you may read files and run read-only commands to understand the change, but you cannot and must not edit anything.`,
    "Look for bugs, security problems, missing tests, and clear violations of the repository's conventions. Do not report style nits as anything above low.",
    'Answer with exactly one JSON object and nothing else: {"findings": [{"file": "<path>", "line": <number or null>, "severity": "info|low|medium|high|critical", "text": "<what is wrong and why>"}]}. No findings: {"findings": []}.',
    "",
    `${fence}diff`,
    diff,
    fence,
  ].join("\n");
}

/** Asked again once when the first answer did not parse. */
export function retryPrompt(error: string): string {
  return `Your answer could not be read as the findings object (${error}). Answer again with only the JSON object {"findings": [...]}, nothing else.`;
}
