import { createReadStream } from "node:fs";
import { open, readFile, stat } from "node:fs/promises";
import { extname } from "node:path";
import { z } from "zod";
import { IMAGE_MAX_BYTES, imageTypeOf } from "../contracts/images.js";
import type { Tool } from "../contracts/tools.js";
import { pathRequests } from "../permission/rules/call-requests.js";
import { listResult } from "./list.js";
import { describeError, displayPath, errorCode, failure, notFoundMessage, resolvePath } from "./paths.js";

/** Lines shown when no limit is given. */
export const READ_DEFAULT_LINES = 2000;
/** Characters of one line shown before it is cut with a marker. */
export const READ_MAX_LINE_CHARS = 2000;
/** Bytes of numbered output one read returns (under the loop's default 50 KB bound, so paging stays in read). */
export const READ_MAX_BYTES = 45_000;

/**
 * A whole number from 1. `int()` adds `maximum: 9007199254740991` to the JSON Schema; clearing it in
 * the metadata drops it from what the model is shown (validation still checks safe integers).
 */
const lineNumber = () => z.number().int().min(1).meta({ maximum: undefined });

const schema = z.strictObject({
  path: z.string().describe("File or folder"),
  offset: lineNumber().optional().describe("First line to read, 1-based"),
  limit: lineNumber().optional().describe(`Most lines to read (default ${READ_DEFAULT_LINES})`),
});

export type ReadInput = z.infer<typeof schema>;

export const readTool: Tool<ReadInput> = {
  name: "read",
  description:
    "Read a text file as numbered lines (a folder is listed; an image is shown to you). Use offset and limit for long files.",
  schema,
  kind: "read",
  requests: async (input, where) => pathRequests("read", input.path, where),
  // The path it read, as judged: a subfolder's own AGENTS.md may join the conversation after it.
  opened: (judged) => judged.requests.find((request) => request.action === "read")?.resource,
  async execute(input, ctx) {
    const absolute = resolvePath(ctx.cwd, input.path);
    const shown = displayPath(ctx.cwd, absolute);
    const fail = failure("read", shown);

    let info: Awaited<ReturnType<typeof stat>>;
    try {
      info = await stat(absolute);
    } catch (error) {
      if (errorCode(error) === "ENOENT") return fail(notFoundMessage(ctx.cwd, absolute), "not found");
      return fail(`Cannot read ${shown}: ${describeError(error)}`, "failed");
    }
    if (info.isDirectory()) return listResult("read", absolute, ctx);
    if (!info.isFile()) return fail(`Cannot read ${shown}: it is not a regular file.`, "not a file");

    const image = imageTypeOf(absolute);
    if (image && info.size <= IMAGE_MAX_BYTES) {
      const data = (await readFile(absolute)).toString("base64");
      return {
        output: `Image ${shown} (${image}, ${info.size} bytes): it follows the results as an image.`,
        summary: `read ${shown} (image)`,
        images: [{ path: shown, mediaType: image, data }],
        metadata: { path: absolute, image, bytes: info.size },
      };
    }
    const binary = await binaryReason(absolute);
    if (binary) return fail(`Cannot read ${shown}: it is a binary file (${binary}).`, "binary");

    const first = input.offset ?? 1;
    const limit = input.limit ?? READ_DEFAULT_LINES;
    // Through the editor when it offered it: the model sees the unsaved buffer, not the disk.
    const access = ctx.access?.read ? ctx.access : undefined;
    let page: Page;
    let text: string | undefined;
    try {
      text = access?.read ? await access.read(absolute, ctx.signal) : undefined;
      const source = text === undefined ? fileChunks(absolute) : [text];
      page = await readPage(source, first, limit, ctx.signal);
    } catch (error) {
      if (ctx.signal.aborted) return fail(`Reading ${shown} was cancelled.`, "cancelled");
      const where = access ? ` through ${access.via}` : "";
      return fail(`Cannot read ${shown}${where}: ${describeError(error)}`, "failed");
    }
    const via = access ? { via: access.via } : {};

    if (page.total === 0) {
      ctx.files.seen(absolute, text);
      return {
        output: "(empty file)",
        summary: `read ${shown} (empty)`,
        metadata: { path: absolute, totalLines: 0, ...via },
      };
    }
    if (first > page.total) {
      return fail(
        `offset ${first} is past the end of ${shown}, which has ${page.total} ${page.total === 1 ? "line" : "lines"}.`,
        "offset past end",
      );
    }

    ctx.files.seen(absolute, text);
    const last = first + page.lines.length - 1;
    const output = page.lines.map((line, i) => `${String(first + i).padStart(5)}\t${line}`);
    if (last < page.total) {
      const why = page.lines.length < limit ? `; one read shows at most ${READ_MAX_BYTES} bytes` : "";
      output.push(`(Showing lines ${first}-${last} of ${page.total}${why}. Continue with offset ${last + 1}.)`);
    }
    const whole = first === 1 && last === page.total;
    return {
      output: output.join("\n"),
      summary: whole
        ? `read ${shown} (${page.total} ${page.total === 1 ? "line" : "lines"})`
        : `read ${shown} (lines ${first}-${last} of ${page.total})`,
      metadata: {
        path: absolute,
        startLine: first,
        endLine: last,
        totalLines: page.total,
        clampedLines: page.clamped,
        ...via,
      },
    };
  },
};

/** Extensions that are binary whatever their first bytes say. */
const BINARY_EXTENSIONS = new Set(
  (
    "png jpg jpeg gif bmp ico webp tif tiff psd heic avif " +
    "mp3 mp4 m4a wav ogg flac aac mov avi mkv webm " +
    "zip gz tgz bz2 xz zst 7z rar tar jar war ear " +
    "exe dll so dylib o a lib obj bin class pyc pyo wasm node " +
    "pdf doc docx xls xlsx ppt pptx odt ods " +
    "woff woff2 ttf otf eot " +
    "sqlite sqlite3 db"
  ).split(" "),
);

/** Why `absolute` is binary (its extension, or NUL bytes in its first 8 KB), or undefined for text. */
export async function binaryReason(absolute: string): Promise<string | undefined> {
  const byName = binaryContentReason(absolute, undefined);
  if (byName) return byName;
  const handle = await open(absolute, "r").catch(() => undefined);
  if (!handle) return undefined; // The read itself will report why it cannot open the file.
  try {
    const buffer = Buffer.alloc(BINARY_SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return binaryContentReason(absolute, buffer.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

const BINARY_SNIFF_BYTES = 8192;

/** `binaryReason` for content already read (its first bytes, or none to judge by the name alone). */
export function binaryContentReason(path: string, data: Uint8Array | undefined): string | undefined {
  const extension = extname(path).slice(1).toLowerCase();
  if (BINARY_EXTENSIONS.has(extension)) return `.${extension}`;
  return data?.subarray(0, BINARY_SNIFF_BYTES).includes(0) ? "it holds NUL bytes" : undefined;
}

interface Page {
  /** The requested lines, line breaks removed, long lines cut with a marker. */
  lines: string[];
  /** Lines in the whole file (a final line break does not start another). */
  total: number;
  /** How many of `lines` were cut for length. */
  clamped: number;
}

/**
 * Streams the file once: keeps lines `first`..`first+limit-1` (within READ_MAX_BYTES of output)
 * and counts all lines. Memory stays bounded even for one enormous line.
 */
async function readPage(
  source: AsyncIterable<string> | Iterable<string>,
  first: number,
  limit: number,
  signal: AbortSignal,
): Promise<Page> {
  const lines: string[] = [];
  let total = 0;
  let clamped = 0;
  let bytes = 0;
  let full = false;
  // The current line: its first READ_MAX_LINE_CHARS + 1 characters and its full length.
  let head = "";
  let length = 0;

  let endsWithCr = false;

  const endLine = () => {
    total++;
    if (full || total < first || lines.length >= limit) return;
    // A CRLF line shows without its \r; a UTF-8 byte order mark is not shown.
    let fullLength = endsWithCr ? length - 1 : length;
    let text = endsWithCr && head.length === length ? head.slice(0, -1) : head;
    if (total === 1 && text.startsWith("\uFEFF")) {
      text = text.slice(1);
      fullLength--;
    }
    if (fullLength > READ_MAX_LINE_CHARS) {
      const cut = clampAt(text, READ_MAX_LINE_CHARS);
      text = `${cut}… [line cut: ${fullLength - cut.length} more characters]`;
      clamped++;
    }
    const lineBytes = Buffer.byteLength(text, "utf8") + 7;
    if (lines.length > 0 && bytes + lineBytes > READ_MAX_BYTES) {
      full = true;
      return;
    }
    bytes += lineBytes;
    lines.push(text);
  };

  try {
    for await (const chunk of source) {
      if (signal.aborted) throw new Error("cancelled");
      let start = 0;
      for (;;) {
        const newline = chunk.indexOf("\n", start);
        const piece = newline === -1 ? chunk.slice(start) : chunk.slice(start, newline);
        if (head.length <= READ_MAX_LINE_CHARS + 1) head += piece.slice(0, READ_MAX_LINE_CHARS + 2 - head.length);
        length += piece.length;
        if (piece.length > 0) endsWithCr = piece.endsWith("\r");
        if (newline === -1) break;
        endLine();
        head = "";
        length = 0;
        endsWithCr = false;
        start = newline + 1;
      }
    }
  } finally {
    if ("destroy" in source && typeof source.destroy === "function") source.destroy();
  }
  if (length > 0) endLine();
  return { lines, total, clamped };
}

/** A file's text from disk in 64 KB pieces. */
function fileChunks(absolute: string): AsyncIterable<string> {
  return createReadStream(absolute, { encoding: "utf8", highWaterMark: 64 * 1024 }) as unknown as AsyncIterable<string>;
}

/** The first `max` characters, not splitting a surrogate pair. */
function clampAt(text: string, max: number): string {
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}
