import type { Delegate, DelegateStatus } from "../session/delegates.js";

/**
 * A delegate in one phrase, as `bosun sessions` and `bosun why --tree` name it: its agent and
 * task ("reviewer: check the diff"; the session's title when the task call gave no description),
 * then how it stands when known ("· done", "· failed", "· running").
 */
export function delegateLabel(delegate: Delegate, title: string, status?: DelegateStatus): string {
  const task = delegate.description ?? (title || "(untitled)");
  return `${delegate.agent}: ${task}${status ? ` · ${status}` : ""}`;
}
