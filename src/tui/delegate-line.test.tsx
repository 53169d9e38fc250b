import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { render } from "ink-testing-library";
import type { ApprovalRequest } from "../permission/gate/approval.js";
import { ApprovalDialog } from "./approval-dialog.js";
import type { DelegateView } from "./delegate-view.js";
import { Transcript, type TranscriptItem } from "./transcript.js";

const tick = () => new Promise((resolve) => setTimeout(resolve, 30));

const grandchild: DelegateView = {
  task_id: "s-2",
  agent: "plan",
  state: "running",
  count: 1,
  calls: [{ id: "g1", name: "grep", title: "grep TODO", status: "running" }],
};
const child = (more: Partial<DelegateView> = {}): DelegateView => ({
  task_id: "s-1",
  agent: "build",
  description: "make x",
  state: "running",
  count: 3,
  calls: [
    { id: "c1", name: "read", title: "read a.ts", status: "done", summary: "read a.ts (3 lines)" },
    { id: "c2", name: "shell", title: "shell touch x.txt", status: "error", summary: "shell: denied by the user" },
    { id: "k1", name: "task", title: "task plan", status: "running", delegate: grandchild },
  ],
  ...more,
});
const task = (delegate: DelegateView, status: "running" | "done" | "error" = "running"): TranscriptItem => ({
  kind: "tool",
  id: "t1",
  name: "task",
  title: "task build",
  status,
  delegate,
});

describe("a delegate's line under its task call", () => {
  it("says its agent, task, state, calls made and the call it is on; opened, its calls and its own delegates", () => {
    const ui = render(<Transcript items={[task(child())]} />);
    const folded = ui.lastFrame() ?? "";
    assert.match(folded, /… task build\n\s+↳ build · make x · running · 3 calls · task plan/);
    assert.doesNotMatch(folded, /read a\.ts/, "folded, its calls are not listed");
    ui.rerender(<Transcript expanded items={[task(child())]} />);
    const lines = (ui.lastFrame() ?? "").split("\n");
    assert.deepEqual(lines, [
      "… task build",
      "  ↳ build · make x · running · 3 calls · task plan",
      "    ✓ read a.ts → 3 lines",
      "    ✗ shell touch x.txt → denied by the user",
      "    … task plan",
      "      ↳ plan · running · 1 call · grep TODO",
      "        … grep TODO",
    ]);
    ui.unmount();
  });

  it("waiting for a slot, then how it ended; older calls than it keeps are counted", () => {
    const waiting = render(<Transcript items={[task(child({ state: "waiting", count: 0, calls: [] }))]} />);
    assert.match(waiting.lastFrame() ?? "", /↳ build · make x · waiting for a slot$/m);
    waiting.unmount();
    for (const [state, text] of [
      ["done", "done · 3 calls"],
      ["cancelled", "cancelled · 3 calls"],
      ["limit", "stopped at its step limit · 3 calls"],
    ] as const) {
      const ui = render(<Transcript items={[task(child({ state }), "done")]} />);
      assert.match(ui.lastFrame() ?? "", new RegExp(`↳ build · make x · ${text}$`, "m"), state);
      ui.unmount();
    }
    const long = render(<Transcript expanded items={[task(child({ state: "done", count: 60 }), "done")]} />);
    assert.match(long.lastFrame() ?? "", /↳ build · make x · done · 60 calls\n\s+… 57 earlier\n\s+✓ read a\.ts/);
    long.unmount();
  });
});

describe("the approval dialog for a delegate's call", () => {
  it("says in its header which delegate asks, and on what task", async () => {
    const request: ApprovalRequest = {
      tool: "shell",
      callId: "c2",
      input: { command: "touch x.txt" },
      outcomes: [{ request: { action: "shell", resource: "touch x.txt" }, effect: "ask", holder: "code", reasons: [] }],
      always: { options: [] },
      from: { agent: "build", description: "make x", session: "s-1" },
    };
    const ui = render(<ApprovalDialog request={request} onAnswer={() => {}} armDelayMs={0} />);
    await tick();
    const frame = ui.lastFrame() ?? "";
    assert.match(frame, /build delegate · shell needs your approval/);
    assert.match(frame, /asked by the build delegate on "make x" \(session s-1\)/);
    ui.unmount();
  });
});
