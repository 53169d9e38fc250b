import { fileURLToPath } from "node:url";
import type { ContentBlock } from "@agentclientprotocol/sdk";
import type { UserMessage } from "../session/events.js";

/**
 * The person's message from an ACP prompt: its text blocks, each link as a line naming it (the
 * agent reads the file if it needs it), embedded text resources and images as attached files
 * (as `-f` attaches them). What bosun cannot take (audio, binary resources) is named in the
 * text, so the model knows it was there.
 */
export function messageOf(blocks: readonly ContentBlock[]): UserMessage {
  const text: string[] = [];
  const files: NonNullable<UserMessage["files"]> = [];
  for (const block of blocks) {
    switch (block.type) {
      case "text":
        text.push(block.text);
        break;
      case "resource_link":
        text.push(`@${pathOf(block.uri)}`);
        break;
      case "resource": {
        const resource = block.resource;
        if ("text" in resource) files.push({ path: pathOf(resource.uri), content: resource.text });
        else text.push(`[a binary resource was left out: ${resource.uri}]`);
        break;
      }
      case "image":
        files.push({
          path: block.uri ? pathOf(block.uri) : `image-${files.length + 1}`,
          content: "",
          image: { mediaType: block.mimeType, data: block.data },
        });
        break;
      default:
        text.push(`[${block.type} content was left out: bosun does not take it]`);
    }
  }
  return { text: text.join("\n"), ...(files.length > 0 ? { files } : {}) };
}

/** A file: URI as its path; any other URI as it is. */
function pathOf(uri: string): string {
  if (!uri.startsWith("file:")) return uri;
  try {
    return fileURLToPath(uri);
  } catch {
    return uri;
  }
}
