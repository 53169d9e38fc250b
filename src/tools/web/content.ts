import TurndownService from "turndown";

export type FetchFormat = "markdown" | "text" | "html";

/** Types that are text though not `text/*`. */
const TEXT_TYPES =
  /^application\/(?:json|ld\+json|xml|xhtml\+xml|javascript|ecmascript|x-javascript|rss\+xml|atom\+xml|x-yaml|yaml|toml|x-sh|graphql)$|\+json$|\+xml$/;
const HTML_TYPES = new Set(["text/html", "application/xhtml+xml"]);
/** Elements whose content no reader wants as text. */
const NOT_CONTENT = new Set(["script", "style", "noscript", "template", "iframe", "object", "embed", "svg", "canvas"]);
const notContent = (node: { nodeName: string }) => NOT_CONTENT.has(node.nodeName.toLowerCase());

/**
 * A fetched body as the model is shown it: HTML as markdown (or plain text, or as it came), other
 * text as it came, decoded in its charset; anything else is refused with a note, never shown as
 * bytes. A body with no type is text when it decodes as UTF-8 and holds no NUL byte.
 */
export function renderBody(
  body: Buffer,
  contentType: string | undefined,
  format: FetchFormat,
  /** Where the body came from: relative links in HTML are made absolute against it. */
  base?: string,
): { text: string; type: string } | { binary: string } {
  const [rawType = "", ...params] = (contentType ?? "").split(";");
  const type = rawType.trim().toLowerCase();
  const charset = params.map((p) => /^\s*charset\s*=\s*"?([^";\s]+)/i.exec(p)?.[1]).find(Boolean);
  const isHtml =
    HTML_TYPES.has(type) || (type === "" && /^\s*<(?:!doctype html|html)/i.test(body.subarray(0, 512).toString()));
  const isText = isHtml || type.startsWith("text/") || TEXT_TYPES.test(type) || (type === "" && looksLikeText(body));
  if (!isText) return { binary: type || "unknown type" };
  const text = decode(body, charset);
  if (!isHtml || format === "html") return { text, type: type || "text" };
  return { text: format === "text" ? htmlToText(text) : htmlToMarkdown(text, base), type: type || "text/html" };
}

function decode(body: Buffer, charset: string | undefined): string {
  try {
    return new TextDecoder(charset ?? "utf-8").decode(body);
  } catch {
    // A charset Node does not know: UTF-8 shows most of such a page right.
    return new TextDecoder("utf-8").decode(body);
  }
}

function looksLikeText(body: Buffer): boolean {
  const head = body.subarray(0, 4096);
  if (head.includes(0)) return false;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(head.subarray(0, Math.max(0, head.length - 4)));
    return true;
  } catch {
    return false;
  }
}

/** The page as markdown; links and images made absolute against `base`, where the page came from. */
export function htmlToMarkdown(html: string, base?: string): string {
  const service = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-" });
  service.remove(notContent);
  if (base) {
    service.addRule("absolute links", {
      filter: (node) => node.nodeName === "A" && node.getAttribute("href") !== null,
      replacement: (content, node) => {
        const href = absolute((node as HTMLElementLike).getAttribute("href") ?? "", base);
        return content.trim() === "" ? "" : `[${content}](${href})`;
      },
    });
    service.addRule("absolute images", {
      filter: "img",
      replacement: (_content, node) => {
        const element = node as HTMLElementLike;
        const src = element.getAttribute("src");
        return src ? `![${element.getAttribute("alt") ?? ""}](${absolute(src, base)})` : "";
      },
    });
  }
  return tidy(service.turndown(html));
}

interface HTMLElementLike {
  getAttribute(name: string): string | null;
}

function absolute(href: string, base: string): string {
  try {
    return new URL(href, base).href;
  } catch {
    return href;
  }
}

/** The page's words: every element reduced to its content, blocks on lines of their own, no markdown escapes. */
export function htmlToText(html: string): string {
  const service = new TurndownService();
  service.remove(notContent);
  service.addRule("plain", {
    filter: (node) => !notContent(node),
    replacement: (content, node) => {
      const element = node as unknown as { isBlock?: boolean; nodeName: string };
      if (element.nodeName === "BR") return "\n";
      return element.isBlock ? `\n\n${content}\n\n` : content;
    },
  });
  service.escape = (text) => text;
  return tidy(service.turndown(html));
}

function tidy(text: string): string {
  return text
    .replace(/[ \t]+\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
