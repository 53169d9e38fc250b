import type { BackgroundJobs } from "../contracts/tools.js";
import type { McpConnections } from "../mcp/connect.js";
import type { UsageSummary } from "../model/session-usage.js";
import type { Lease } from "../store/lease.js";
import type { SessionStore } from "../store/session-store.js";
import { createBackgroundJobs } from "../tools/jobs.js";

/** What a session holds while it is open, and the one way it is let go. */
export interface SessionLife {
  jobs: BackgroundJobs;
  /** The session's title requests: settled before it closes. */
  titles: Array<Promise<void>>;
  hold(parts: { lease?: Lease; mcp?: McpConnections; usedSince?: () => UsageSummary }): void;
  usage(): UsageSummary | undefined;
  close(): Promise<void>;
}

/** Once, whoever calls close first: the title settles, background jobs and MCP servers stop, the lease goes. */
export function sessionLife(store: SessionStore): SessionLife {
  const jobs = createBackgroundJobs();
  const titles: Array<Promise<void>> = [];
  let lease: Lease | undefined;
  let mcp: McpConnections | undefined;
  let usedSince: (() => UsageSummary) | undefined;
  // Taken as the session closes, once its title's request is in: what usage() says afterwards.
  let usedAtClose: UsageSummary | undefined;
  let closing: Promise<void> | undefined;
  // A second Ctrl-C leaves through process.exit: the lease goes with it, not after a heartbeat
  // timeout. Removed on close: the interactive session opens one session after another.
  const releaseOnExit = () => lease?.release();
  process.once("exit", releaseOnExit);
  const close = () => {
    closing ??= (async () => {
      process.off("exit", releaseOnExit);
      // A title that failed (a full disk) still lets everything else be stopped and closed; its error is thrown after.
      let failed: { error: unknown } | undefined;
      await Promise.all(titles).catch((error: unknown) => {
        failed = { error };
      });
      try {
        usedAtClose = usedSince?.();
      } catch {
        // A store that cannot be read now (a full disk) leaves the totals unknown, not the close undone.
      }
      jobs.killAll();
      await mcp?.close();
      lease?.release();
      store.close();
      if (failed) throw failed.error;
    })();
    return closing;
  };
  return {
    jobs,
    titles,
    hold(parts) {
      lease = parts.lease ?? lease;
      mcp = parts.mcp ?? mcp;
      usedSince = parts.usedSince ?? usedSince;
    },
    usage: () => (closing ? usedAtClose : usedSince?.()),
    close,
  };
}
