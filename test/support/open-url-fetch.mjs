// A "browser" for sign-in tests (BOSUN_OPEN_URL_COMMAND="node open-url-fetch.mjs"): fetches the
// URL it is given, following redirects — the test authorization server approves at once and
// sends it back to bosun's callback. With OPEN_URL_LOG set, appends the URL there first.
import { appendFileSync } from "node:fs";

const url = process.argv.at(-1);
if (process.env.OPEN_URL_LOG) appendFileSync(process.env.OPEN_URL_LOG, `${url}\n`);
const response = await fetch(url);
process.exitCode = response.ok ? 0 : 1;
