import type { ModelMessage } from "ai";
import { TEXT_CALL_PREFIX } from "../calls/text/shim.js";

type ToolMessage = Extract<ModelMessage, { role: "tool" }>;
type ResultPart = Extract<ToolMessage["content"][number], { type: "tool-result" }>;

const isTextCall = (id: string) => id.startsWith(TEXT_CALL_PREFIX);

/**
 * Calls the model wrote as text go back as text: the model never made a native call, so a tool
 * message would answer a call id it never sent (providers reject that, and a model without tool
 * support has no tool role at all). Its assistant message keeps only its text — the calls are in
 * it as written — and the results follow as one user message starting with [bosun] (which the
 * system prompt says is bosun speaking), each in a `<tool_result name=".." call="..">` tag: tags
 * close unambiguously around output that itself holds fences and JSON, and mirror the
 * `<tool_call>` tags the model was asked to write. Native calls are left as they are.
 */
export function textCallsAsText(messages: readonly ModelMessage[]): ModelMessage[] {
  const out: ModelMessage[] = [];
  for (const message of messages) {
    if (message.role === "assistant" && Array.isArray(message.content)) {
      const content = message.content.filter((part) => part.type !== "tool-call" || !isTextCall(part.toolCallId));
      if (content.length !== message.content.length) {
        if (content.length > 0) out.push({ ...message, content });
        continue;
      }
    }
    if (message.role === "tool") {
      const results = message.content.filter(
        (part): part is ResultPart => part.type === "tool-result" && isTextCall(part.toolCallId),
      );
      if (results.length > 0) {
        const rest = message.content.filter((part) => !results.includes(part as ResultPart));
        if (rest.length > 0) out.push({ ...message, content: rest });
        out.push({ role: "user", content: renderResults(results) });
        continue;
      }
    }
    out.push(message);
  }
  return out;
}

function renderResults(results: readonly ResultPart[]): string {
  const tags = results.map((part) => {
    const error = part.output.type === "error-text" || part.output.type === "error-json" ? ' error="true"' : "";
    return `<tool_result name="${part.toolName}" call="${part.toolCallId}"${error}>\n${outputText(part.output)}\n</tool_result>`;
  });
  return `[bosun] Results of your tool calls:\n${tags.join("\n")}`;
}

function outputText(output: ResultPart["output"]): string {
  if (output.type === "text" || output.type === "error-text") return output.value;
  if (output.type === "content") {
    return output.value.map((part) => (part.type === "text" ? part.text : `(${part.type})`)).join("\n");
  }
  return JSON.stringify("value" in output ? output.value : output);
}
