import type { ToolResult } from "../contracts/tools.js";

/** An embedded resource's text beyond this is cut here: the loop bounds the whole output too, but one resource must not crowd out the rest. */
export const RESOURCE_TEXT_CHARS = 20_000;

/** One part of a tool result's content, as MCP defines them (only the fields bosun reads). */
interface ContentPart {
  type: string;
  text?: string;
  data?: string;
  mimeType?: string;
  uri?: string;
  name?: string;
  title?: string;
  description?: string;
  resource?: { uri?: string; mimeType?: string; text?: string; blob?: string };
}

/** A tool call's result as a server returns it. */
export interface McpCallResult {
  content?: ContentPart[];
  isError?: boolean;
  structuredContent?: unknown;
}

/**
 * What the model is given of a tool's result: text as is; images as images after the results
 * (the text says where); an embedded resource's text (bounded) under its URI, or for a blob a
 * note of its URI and type; a resource link's URI and name, so the model can ask to read it;
 * structuredContent when there is no content. Nothing is dropped without a note saying so.
 */
export function renderResult(server: string, tool: string, result: McpCallResult): ToolResult {
  const content = result.content ?? [];
  const images = content
    .filter((part) => part.type === "image" && typeof part.data === "string")
    .map((part, i) => ({
      path: `${server}/${tool} image ${i + 1}`,
      mediaType: part.mimeType ?? "image/png",
      data: part.data as string,
    }));
  let image = 0;
  const text = content
    .map((part) => {
      if (part.type === "image" && typeof part.data === "string") return `[image ${++image}: follows the results]`;
      return partText(part);
    })
    .join("\n");
  const output = text || (result.structuredContent !== undefined ? JSON.stringify(result.structuredContent) : "");
  return {
    output: output || "(no output)",
    isError: result.isError === true,
    summary: `${server}/${tool}${result.isError ? " failed" : ""}`,
    ...(images.length > 0 ? { images } : {}),
  };
}

function partText(part: ContentPart): string {
  if (part.type === "text") return part.text ?? "";
  if (part.type === "resource") return embedded(part.resource ?? {});
  if (part.type === "resource_link") {
    const about = [part.mimeType, part.description].filter(Boolean).join("; ");
    return `[resource link: ${part.name ?? part.title ?? "unnamed"} ${part.uri ?? "(no uri)"}${about ? ` (${about})` : ""}]`;
  }
  if (part.type === "audio") return `[audio${part.mimeType ? ` ${part.mimeType}` : ""}: not shown]`;
  return `[${part.type} content: not shown]`;
}

function embedded(resource: NonNullable<ContentPart["resource"]>): string {
  const uri = resource.uri ?? "(no uri)";
  const type = resource.mimeType ? ` (${resource.mimeType})` : "";
  if (typeof resource.text === "string") {
    const cut = resource.text.length > RESOURCE_TEXT_CHARS;
    const body = cut
      ? `${resource.text.slice(0, RESOURCE_TEXT_CHARS)}\n[… cut at ${RESOURCE_TEXT_CHARS} of ${resource.text.length} characters]`
      : resource.text;
    return `[resource ${uri}${type}]\n${body}`;
  }
  const size = typeof resource.blob === "string" ? `, ${Math.floor((resource.blob.length * 3) / 4)} bytes` : "";
  return `[resource ${uri}${type}${size}: binary, not shown]`;
}
