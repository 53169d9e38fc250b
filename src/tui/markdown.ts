import { Lexer, type Token, type Tokens } from "marked";

/**
 * Assistant text as terminal markdown: parsed by marked's lexer (CommonMark and GFM, so a reply
 * cut mid-stream parses too — an open code fence runs to the end), drawn as lines of segments
 * for Ink's <Text>. Headings and **strong** in bold, *emphasis* in italics, `code` and code
 * blocks in a colour, links with their address, lists with bullets or numbers, quotes and
 * tables kept readable. What it does not know is shown as written, never dropped.
 */
export interface Segment {
  text: string;
  bold?: boolean;
  italic?: boolean;
  strike?: boolean;
  code?: boolean;
  dim?: boolean;
}

type Line = Segment[];

export function markdownLines(text: string): Line[] {
  let tokens: Token[];
  try {
    tokens = new Lexer({ gfm: true }).lex(text);
  } catch {
    return text.split("\n").map((line) => [{ text: line }]);
  }
  const lines = blocks(tokens, "");
  while (lines.length > 0 && isBlank(lines.at(-1) as Line)) lines.pop();
  return lines.length > 0 ? lines : [[{ text: "" }]];
}

const isBlank = (line: Line) => line.every((s) => s.text.trim() === "");

/** Block tokens as lines, each prefixed with `indent` (nested lists, quotes). */
function blocks(tokens: readonly Token[], indent: string): Line[] {
  const lines: Line[] = [];
  const prefix = (line: Line): Line => (indent ? [{ text: indent, dim: true }, ...line] : line);
  for (const token of tokens) {
    switch (token.type) {
      case "space":
        if (lines.length > 0 && !isBlank(lines.at(-1) as Line)) lines.push([]);
        break;
      case "heading":
        for (const line of inlineLines((token as Tokens.Heading).tokens, { bold: true })) lines.push(prefix(line));
        break;
      case "paragraph":
      case "text": {
        const inner = (token as Tokens.Paragraph | Tokens.Text).tokens;
        const found = inner ? inlineLines(inner, {}) : splitLines((token as Tokens.Text).text, {});
        for (const line of found) lines.push(prefix(line));
        break;
      }
      case "code": {
        const code = token as Tokens.Code;
        if (code.lang) lines.push(prefix([{ text: code.lang, dim: true }]));
        for (const line of code.text.split("\n")) lines.push(prefix([{ text: `  ${line}`, code: true }]));
        break;
      }
      case "list": {
        const list = token as Tokens.List;
        list.items.forEach((item, index) => {
          const mark = list.ordered ? `${Number(list.start || 1) + index}. ` : "• ";
          const check = item.task ? (item.checked ? "[x] " : "[ ] ") : "";
          // The task box is drawn from item.checked: marked's own checkbox token is left out.
          const inner = blocks(
            item.tokens.filter((t) => (t.type as string) !== "checkbox"),
            "",
          );
          const [first = [], ...rest] = inner;
          lines.push(prefix([{ text: mark + check }, ...first]));
          const hang = " ".repeat(mark.length);
          for (const line of rest) lines.push(prefix(isBlank(line) ? line : [{ text: hang }, ...line]));
        });
        break;
      }
      case "blockquote":
        for (const line of blocks((token as Tokens.Blockquote).tokens, "")) {
          lines.push(prefix([{ text: "│ ", dim: true }, ...line.map((s) => ({ ...s, dim: true }))]));
        }
        break;
      case "hr":
        lines.push(prefix([{ text: "────────", dim: true }]));
        break;
      case "table": {
        const table = token as Tokens.Table;
        const row = (cells: Tokens.TableCell[], bold: boolean): Line =>
          cells.flatMap((cell, i) => [
            ...(i > 0 ? [{ text: " │ ", dim: true }] : []),
            ...inlineLines(cell.tokens, bold ? { bold: true } : {}).flat(),
          ]);
        lines.push(prefix(row(table.header, true)));
        for (const cells of table.rows) lines.push(prefix(row(cells, false)));
        break;
      }
      default:
        // html, def, and anything newer: as written.
        for (const line of splitLines(token.raw.replace(/\n+$/, ""), {})) lines.push(prefix(line));
    }
  }
  return lines;
}

/** Inline tokens as lines (a hard break or a newline in text starts a new one). */
function inlineLines(tokens: readonly Token[], style: Omit<Segment, "text">): Line[] {
  const lines: Line[] = [[]];
  const push = (segment: Segment) => {
    const [first = "", ...more] = segment.text.split("\n");
    if (first) (lines.at(-1) as Line).push({ ...segment, text: first });
    for (const piece of more) lines.push(piece ? [{ ...segment, text: piece }] : []);
  };
  for (const token of tokens) {
    switch (token.type) {
      case "strong":
        for (const line of nested((token as Tokens.Strong).tokens, { ...style, bold: true })) push(line);
        break;
      case "em":
        for (const line of nested((token as Tokens.Em).tokens, { ...style, italic: true })) push(line);
        break;
      case "del":
        for (const line of nested((token as Tokens.Del).tokens, { ...style, strike: true })) push(line);
        break;
      case "codespan":
        push({ ...style, text: (token as Tokens.Codespan).text, code: true });
        break;
      case "link": {
        const link = token as Tokens.Link;
        for (const line of nested(link.tokens, style)) push(line);
        if (link.href && link.href !== link.text) push({ text: ` (${link.href})`, dim: true });
        break;
      }
      case "br":
        lines.push([]);
        break;
      case "text": {
        const text = token as Tokens.Text;
        if (text.tokens) for (const line of nested(text.tokens, style)) push(line);
        else push({ ...style, text: decodeEntities(text.text) });
        break;
      }
      case "escape":
        push({ ...style, text: (token as Tokens.Escape).text });
        break;
      default:
        push({ ...style, text: token.raw });
    }
  }
  return lines;
}

/** Nested inline tokens as segments, newlines kept inside them for `push` to split. */
function nested(tokens: readonly Token[], style: Omit<Segment, "text">): Segment[] {
  return inlineLines(tokens, style).flatMap((line, i) => (i > 0 ? [{ text: "\n" }, ...line] : line));
}

function splitLines(text: string, style: Omit<Segment, "text">): Line[] {
  return text.split("\n").map((line) => [{ ...style, text: line }]);
}

/** marked leaves HTML entities in text tokens (`&amp;`, `&#39;`): shown as the characters they stand for. */
function decodeEntities(text: string): string {
  return text
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");
}
