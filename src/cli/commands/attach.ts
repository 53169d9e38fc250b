import { readFileSync } from "node:fs";
import { dataDir } from "../../config/paths.js";
import { UsageError } from "../../errors.js";
import { listeningNow } from "../../server/address.js";
import { tokenFile } from "../../server/token.js";
import { openInteractiveUi } from "../../tui/open-ui.js";
import { personBridge } from "../../tui/person-bridge.js";
import { ownVersion } from "../../util/own-files.js";
import { ServerClient } from "../attach/client.js";
import { attachRunner } from "../attach-runner.js";

export interface AttachOptions {
  session?: string;
  token?: string;
}

/**
 * `bosun attach <url> [--session id] [--token t]`: the interactive session, driving a session a
 * server holds (a new one in this folder unless --session names one), so a long task outlives the
 * terminal. The token: --token, else BOSUN_SERVER_TOKEN, else this machine's own server's.
 */
export async function attach(url: string, options: AttachOptions): Promise<void> {
  let base: URL;
  try {
    base = new URL(url);
  } catch {
    throw new UsageError(`"${url}" is not a URL: give the server's, e.g. http://127.0.0.1:4747`);
  }
  if (base.protocol !== "http:" && base.protocol !== "https:") {
    throw new UsageError(`"${url}" is not an http(s) URL`);
  }
  const client = new ServerClient(base.origin, tokenFor(base, options.token));
  const session = await sessionOn(client, options.session);

  const controller = new AbortController();
  const ui = openInteractiveUi();
  const person = personBridge();
  const questions = person.forSession(session);
  let lost: string | undefined;
  const runner = attachRunner({
    client,
    session,
    question: questions.question,
    signal: controller.signal,
    onLost: (why) => {
      lost = why;
      person.warn(`lost the server's event stream (${why}): the session goes on there; attach again to follow it`);
    },
  });
  const { render, createElement, App } = await ui;
  const app = render(
    createElement(App, {
      runner,
      person,
      welcome: { version: ownVersion(), directory: `${base.origin} · session ${session.slice(0, 10)}` },
    }),
    { exitOnCtrlC: false },
  );
  try {
    await app.waitUntilExit();
  } finally {
    controller.abort(new Error("bosun attach ended"));
    await runner.close();
  }
  process.stdout.write(`session ${session} stays on ${base.origin}${lost ? ` (the stream was lost: ${lost})` : ""}\n`);
}

function tokenFor(base: URL, given: string | undefined): string {
  const token = given ?? process.env.BOSUN_SERVER_TOKEN;
  if (token) return token;
  // This machine's own server, at exactly the origin it said it listens on: its token is in our
  // data folder. Any other port gets nothing — whatever listens there could be anyone's.
  const listening = listeningNow(dataDir());
  if (listening && listening.origin === base.origin) {
    try {
      return readFileSync(tokenFile(dataDir()), "utf8").trim();
    } catch {
      // Fall through to the usage error.
    }
  }
  const where = listening ? ` (this machine's bosun serve listens on ${listening.origin})` : "";
  throw new UsageError(
    `no token for ${base.origin}${where}: give --token, or set BOSUN_SERVER_TOKEN (bosun serve printed it on its first start)`,
  );
}

/** The session to drive: the one named (it must be on the server), or a new one in this folder. */
async function sessionOn(client: ServerClient, wanted: string | undefined): Promise<string> {
  let answer: Awaited<ReturnType<ServerClient["request"]>>;
  try {
    answer = wanted
      ? await client.request("GET", `/sessions/${encodeURIComponent(wanted)}`)
      : await client.request("POST", "/sessions", { directory: process.cwd() });
  } catch (error) {
    throw new UsageError(`cannot reach ${client.base}: ${(error as Error).message}`);
  }
  const body = answer.body as { id?: string; error?: string };
  if (answer.status === 401) throw new UsageError(`${client.base} refused the token`);
  if (answer.status === 404 || answer.status === 400) {
    throw new UsageError(`no session "${wanted}" on ${client.base} (${body.error ?? answer.status})`);
  }
  if (!body.id) throw new UsageError(`${client.base} did not open a session: ${body.error ?? answer.status}`);
  return body.id;
}
