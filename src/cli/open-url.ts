import { spawn } from "node:child_process";

/**
 * Opens `url` for the person: with BOSUN_OPEN_URL_COMMAND set, that command (its words split on
 * spaces) with the URL as its last argument — how tests, or a person on a machine without a
 * desktop, take the sign-in elsewhere; otherwise the system's opener. Never waits for it and
 * never fails: the caller prints the URL as well, for when nothing opens.
 */
export function openUrl(url: string, env: NodeJS.ProcessEnv = process.env): void {
  const [command, ...args] = opener(env);
  if (!command) return;
  try {
    const child = spawn(command, [...args, url], { stdio: "ignore", detached: true });
    child.on("error", () => {});
    child.unref();
  } catch {
    // No opener here: the printed URL is the way.
  }
}

function opener(env: NodeJS.ProcessEnv): string[] {
  const configured = env.BOSUN_OPEN_URL_COMMAND?.trim();
  if (configured) return configured.split(/\s+/);
  if (process.platform === "darwin") return ["open"];
  if (process.platform === "win32") return ["rundll32", "url.dll,FileProtocolHandler"];
  return ["xdg-open"];
}
