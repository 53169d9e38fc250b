import { formatAlwaysRule } from "../rules/always.js";
import { formatRequest } from "../rules/call-requests.js";
import type { TrustPrompt } from "../trust/project-trust.js";
import type { ApprovalPrompt, ApprovalRequest, PersonReply } from "./approval.js";

/**
 * The person's seat in a plain terminal (`bosun run` with a TTY): the call's tool, every request
 * with the rules' answer, a diff for edits, then allow once / always (with the exact patterns it
 * saves) / deny / deny with a message. Drawn on stderr, so stdout keeps only the agent's answer.
 * The prompt library loads only when a first call needs approval.
 */
export function terminalPrompt(io: { input: NodeJS.ReadableStream; output: NodeJS.WritableStream }): ApprovalPrompt {
  return {
    async ask(request, signal) {
      const clack = await import("@clack/prompts");
      const common = { input: io.input as NodeJS.ReadStream, output: io.output as NodeJS.WriteStream, signal };
      const who = request.from ? `delegate ${request.from.agent}: ` : "";
      clack.note(describeRequest(request), `${who}${request.tool} needs your approval`, common);
      const always = request.always.options;
      const choice = await clack.select<string>({
        ...common,
        message: "Allow this call?",
        options: [
          { value: "once", label: "Allow once" },
          ...always.map((option, index) => ({
            value: `always:${index}`,
            label: `Allow ${option.label === "always" ? "always" : option.label}`,
            hint: `saves ${option.rules.map(formatAlwaysRule).join(", ")}`,
          })),
          { value: "deny", label: "Deny" },
          { value: "message", label: "Deny, and tell the agent why" },
        ],
      });
      if (clack.isCancel(choice)) return { kind: "cancel" };
      if (choice === "once") return { kind: "once" };
      if (choice === "deny") return { kind: "deny" };
      if (choice.startsWith("always:")) {
        const option = always[Number(choice.slice("always:".length))];
        return option ? { kind: "always", option } : { kind: "cancel" };
      }
      const message = await clack.text({
        ...common,
        message: "What should the agent know?",
        validate: (value) => (value?.trim() ? undefined : "write a message, or press Ctrl-C to leave"),
      });
      if (clack.isCancel(message)) return { kind: "cancel" } satisfies PersonReply;
      return { kind: "deny", message: message.trim() };
    },
  };
}

/** The note above the choice: what the call would do, request by request, and its diff. */
export function describeRequest(request: ApprovalRequest): string {
  const lines: string[] = [];
  if (request.from) {
    const task = request.from.description ? ` on "${request.from.description}"` : "";
    lines.push(`asked by the ${request.from.agent} delegate${task} (session ${request.from.session})`, "");
  }
  for (const outcome of request.outcomes) {
    const mark = outcome.effect === "allow" ? "✓ allowed " : outcome.effect === "ask" ? "? asks    " : "✗ denied  ";
    lines.push(`${mark} ${formatRequest(outcome.request)}`);
  }
  if (request.problem !== undefined) {
    lines.push(`? asks      the whole call: bosun cannot analyse it (${request.problem})`);
    if (typeof request.input.command === "string") lines.push("", `  ${request.input.command}`);
  }
  if (request.preview) lines.push("", request.preview);
  if (request.always.unavailable) lines.push("", `"Always" is not offered: ${request.always.unavailable}.`);
  return lines.join("\n");
}

/** The terminal's question about a repository's loosening settings (seat project.trust). */
export function terminalTrustPrompt(io: { input: NodeJS.ReadableStream; output: NodeJS.WritableStream }): TrustPrompt {
  return {
    async askTrust(loosening, signal) {
      const clack = await import("@clack/prompts");
      const common = { input: io.input as NodeJS.ReadStream, output: io.output as NodeJS.WriteStream, signal };
      clack.note(
        [...loosening.items.map((item) => `  ${item}`), "", `from ${loosening.files.join(", ")}`].join("\n"),
        "This repository's bosun.json would let more run without asking",
        common,
      );
      const choice = await clack.select<"once" | "always" | "no">({
        ...common,
        message: "Trust these settings?",
        options: [
          { value: "no", label: "No — ask as my own config says" },
          { value: "once", label: "Yes, for this run" },
          {
            value: "always",
            label: "Yes, always for this exact content",
            hint: `saves trust for ${loosening.fingerprint}`,
          },
        ],
      });
      return clack.isCancel(choice) ? "no" : choice;
    },
  };
}
