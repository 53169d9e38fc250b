import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { bodyLimit } from "hono/body-limit";
import { HTTPException } from "hono/http-exception";
import { namesASeat } from "../seats/seat-names.js";
import { decisionsJson } from "../session/decisions-json.js";
import { delegateFacts, sessionJson } from "../session/json.js";
import { ledgerText } from "../session/ledger-text.js";
import type { SessionStore } from "../store/session-store.js";
import { decideRequestPlace } from "./bind.js";
import type { Hub } from "./hub.js";
import { Decision, ErrorBody, json, Session, SessionId, unauthorized } from "./schemas.js";
import { bearerMatches } from "./token.js";
import { turnRoutes } from "./turn-routes.js";

/*
 * bosun's HTTP API. Every route, the OpenAPI document included, needs the token: a request
 * without it, or with another, is 401 before any route runs. Errors are JSON `{error}`, never a
 * stack; a bad parameter is 400 naming the field; an unknown session is 404.
 */

const notFound = json(ErrorBody, "no session with that id");
const badRequest = json(ErrorBody, "a parameter is not valid; the error names it");

const listSessions = createRoute({
  method: "get",
  path: "/sessions",
  summary: "The sessions, newest first",
  request: {
    query: z.object({
      directory: z.string().min(1).optional().openapi({ description: "only the sessions started in this folder" }),
    }),
  },
  responses: { 200: json(z.array(Session), "the sessions"), 400: badRequest, 401: unauthorized },
});

const getSession = createRoute({
  method: "get",
  path: "/sessions/{id}",
  summary: "One session",
  request: { params: SessionId },
  responses: { 200: json(Session, "the session"), 400: badRequest, 401: unauthorized, 404: notFound },
});

const sessionDecisions = createRoute({
  method: "get",
  path: "/sessions/{id}/decisions",
  summary: "The session's ledger: every decision, who held it and why (bosun why --json)",
  request: {
    params: SessionId,
    query: z.object({ seat: z.string().min(1).optional().openapi({ description: "a seat id or glob (call.*)" }) }),
  },
  responses: {
    200: json(z.array(Decision), "the decisions, oldest first"),
    400: badRequest,
    401: unauthorized,
    404: notFound,
  },
});

/** The largest request body the server reads: a message's text (1 MB) with room for its JSON. */
export const MAX_BODY_BYTES = 2 * 1024 * 1024;

const ledgerRoute = createRoute({
  method: "get",
  path: "/sessions/{id}/ledger",
  summary: "The session's ledger as `bosun why` prints it, by turn and step, fitted to a width",
  request: {
    params: SessionId,
    query: z.object({
      seat: z.string().min(1).optional().openapi({ description: "a seat id or glob (call.*)" }),
      width: z.coerce.number().int().min(40).max(400).optional().openapi({ description: "columns (default 100)" }),
      color: z.enum(["true", "false"]).optional(),
      all: z.enum(["true", "false"]).optional().openapi({ description: "every set-up decision in full" }),
    }),
  },
  responses: {
    200: { content: { "text/plain": { schema: z.string() } }, description: "the ledger" },
    400: badRequest,
    401: unauthorized,
    404: notFound,
  },
});

export interface ServerDeps {
  store: SessionStore;
  token: string;
  version: string;
  /** Bound on loopback (the default): only requests addressed to this machine (Host) are answered. */
  loopbackOnly?: boolean;
  /** The sessions this server drives; absent, the API only reads. */
  hub?: Hub;
}

/** The API as a Hono app: `fetch`-shaped, served by @hono/node-server or called directly in tests. */
export function serverApp(deps: ServerDeps): OpenAPIHono {
  const app = new OpenAPIHono({
    // A parameter that fails its schema: 400 with the field and what it must be.
    defaultHook: (result, c) => {
      if (result.success) return;
      const issue = result.error.issues[0];
      const field = issue?.path.join(".") || "request";
      return c.json({ error: `${field}: ${issue?.message ?? "not valid"}` }, 400);
    },
  });
  app.use("*", async (c, next) => {
    // DNS rebinding and cross-site pages: refused by where the request says it goes and comes from.
    const place = decideRequestPlace(
      { host: c.req.header("host"), origin: c.req.header("origin") },
      deps.loopbackOnly !== false,
    );
    if (!place.ok) return c.json({ error: place.reason }, 403);
    if (!bearerMatches(c.req.header("authorization"), deps.token)) {
      c.header("WWW-Authenticate", 'Bearer realm="bosun"');
      return c.json({ error: "unauthorized: send Authorization: Bearer <token> (bosun serve printed it)" }, 401);
    }
    await next();
  });
  // A body past this is refused before it is read whole (a message is at most 1 MB of text).
  app.use(
    "*",
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: (c) => {
        // The rest of the body is not read: the connection ends with this answer, not reused half-read.
        c.header("Connection", "close");
        return c.json({ error: "the body is too large" }, 413);
      },
    }),
  );

  const { store } = deps;
  const found = (id: string) => store.get(id.toUpperCase());

  app.openapi(listSessions, (c) => {
    const { directory } = c.req.valid("query");
    const sessions = store.list(directory).map((s) => sessionJson(s, delegateFacts(store, s)));
    return c.json(sessions as z.infer<typeof Session>[], 200);
  });
  app.openapi(getSession, (c) => {
    const session = found(c.req.valid("param").id);
    if (!session) return c.json({ error: "no such session" }, 404);
    return c.json(sessionJson(session, delegateFacts(store, session)) as z.infer<typeof Session>, 200);
  });
  app.openapi(sessionDecisions, (c) => {
    const session = found(c.req.valid("param").id);
    if (!session) return c.json({ error: "no such session" }, 404);
    const decisions = decisionsJson(store, session.id, c.req.valid("query").seat);
    return c.json(decisions as z.infer<typeof Decision>[], 200);
  });

  app.openapi(ledgerRoute, (c) => {
    const session = found(c.req.valid("param").id);
    if (!session) return c.json({ error: "no such session" }, 404);
    const { seat, width, color, all } = c.req.valid("query");
    if (seat !== undefined && !namesASeat(seat)) return c.json({ error: `seat: no seat matches "${seat}"` }, 400);
    const text = ledgerText(store, session.id, {
      width: width ?? 100,
      color: color === "true",
      seat,
      all: all === "true",
    });
    return c.text(`${text}\n`, 200);
  });

  if (deps.hub) turnRoutes(app, { store, hub: deps.hub });

  app.openAPIRegistry.registerComponent("securitySchemes", "bearer", { type: "http", scheme: "bearer" });
  app.doc31("/openapi.json", {
    openapi: "3.1.0",
    info: { title: "bosun", version: deps.version, description: "bosun's HTTP API (bosun serve)" },
    security: [{ bearer: [] }],
  });
  app.notFound((c) => c.json({ error: `no route ${c.req.method} ${c.req.path}` }, 404));
  // Whatever went wrong inside, the client gets a line, never a stack.
  app.onError((error, c) => {
    // A request the framework refused itself (a body that is not JSON): its status, said as JSON.
    if (error instanceof HTTPException && error.status < 500) {
      return c.json({ error: `the request: ${error.message.split("\n")[0] || "not valid"}` }, error.status);
    }
    return c.json({ error: `internal error: ${error.message.split("\n")[0]}` }, 500);
  });
  return app;
}
