/**
 * Assistant text as terminal markdown, without a parser dependency: headings and **bold** in
 * bold, `code` and fenced blocks in a colour, bullets kept. Returns segments for Ink's <Text>;
 * anything it does not know is shown as written, never dropped.
 */
export interface Segment {
  text: string;
  bold?: boolean;
  code?: boolean;
  dim?: boolean;
}

export function markdownLines(text: string): Segment[][] {
  const lines: Segment[][] = [];
  let fenced = false;
  for (const line of text.split("\n")) {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      lines.push([{ text: line, dim: true }]);
      continue;
    }
    if (fenced) {
      lines.push([{ text: line, code: true }]);
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      lines.push([{ text: heading[2] as string, bold: true }]);
      continue;
    }
    lines.push(inline(line.replace(/^(\s*)[-*]\s+/, "$1• ")));
  }
  return lines;
}

function inline(line: string): Segment[] {
  const segments: Segment[] = [];
  const pattern = /(\*\*[^*]+\*\*|`[^`]+`)/g;
  let last = 0;
  for (const match of line.matchAll(pattern)) {
    const at = match.index ?? 0;
    if (at > last) segments.push({ text: line.slice(last, at) });
    const token = match[0];
    if (token.startsWith("**")) segments.push({ text: token.slice(2, -2), bold: true });
    else segments.push({ text: token.slice(1, -1), code: true });
    last = at + token.length;
  }
  if (last < line.length || segments.length === 0) segments.push({ text: line.slice(last) });
  return segments;
}
