import { z } from "@hono/zod-openapi";

/** The API's shared shapes: what the routes take and give, and so what /openapi.json says. */

export const ErrorBody = z.object({ error: z.string() }).openapi("Error");

export const Session = z
  .object({
    id: z.string(),
    title: z.string(),
    directory: z.string(),
    parent: z.string().nullable(),
    delegate: z.unknown().nullable(),
    status: z.string().nullable(),
    created: z.string(),
    updated: z.string(),
  })
  .openapi("Session");

export const Decision = z
  .object({
    seq: z.number().int(),
    seat: z.string(),
    holder: z.string(),
    answer: z.unknown(),
    reasons: z.array(z.object({ rule: z.string(), detail: z.string().optional() }).passthrough()),
    subject: z.record(z.string(), z.unknown()).nullable(),
    at: z.string(),
    copiedFrom: z.string().nullable(),
  })
  .openapi("Decision");

export const SessionId = z.object({
  id: z
    .string()
    .regex(/^[0-9A-Za-z]{26}$/, "a session id (26 letters and digits)")
    .openapi({ param: { name: "id", in: "path" }, example: "01M8XZDZWEZX9XDZFQS5W9B4P4" }),
});

export const json = <T extends z.ZodType>(schema: T, description: string) => ({
  content: { "application/json": { schema } },
  description,
});
export const unauthorized = json(ErrorBody, "no token, or not this server's");
