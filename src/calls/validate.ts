import type { z } from "zod";

/** Seat `call.validate`: the arguments against the tool's schema; every problem is listed. */
export function validateArguments<T>(
  value: unknown,
  schema: z.ZodType<T>,
): { ok: true; value: T } | { ok: false; problems: string[] } {
  const result = schema.safeParse(value);
  if (result.success) return { ok: true, value: result.data };
  return {
    ok: false,
    problems: result.error.issues.map((issue) => {
      const where = issue.path.length > 0 ? issue.path.join(".") : "(arguments)";
      if (issue.code === "unrecognized_keys") return `${where}: unknown argument(s) ${issue.keys.join(", ")}`;
      return `${where}: ${issue.message}`;
    }),
  };
}
