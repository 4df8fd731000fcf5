// Turning a message file's bytes into header lines and body text: the one read path shared by
// parse() (summary) and describe() (detail). No filesystem access.
import { MAX_FILE_BYTES } from "@/lib/protocols/types";
import { decodeBody, decodeHeaders, encodingOf, type Encoding } from "./foreign";
import { readHeaderLines, splitHeaderBlock } from "./reference";

export interface MessageText {
  /** The bytes as UTF-8 text with the BOM kept: what the reference tool reads (headers only when truncated). */
  referenceText: string;
  /** [name, value] in file order, continuations joined; RFC 2047 words decoded. */
  headers: [string, string][];
  /** The header block went past a PARSE_LIMITS cap (said as a problem); `headers` holds those before it. */
  headerLimit: string | null;
  /** Decoded body; the whole text when there is no header block; "" when headers only or binary. */
  body: string;
  /** The file has an empty line ending its headers. */
  hasHeaderBlock: boolean;
  /** Only the headers were read (the file is larger than MAX_FILE_BYTES). */
  headersOnly: boolean;
  validUtf8: boolean;
  /** NUL bytes: binary data, not message text. */
  hasNul: boolean;
  encoding: Encoding;
}

const lossy = new TextDecoder("utf-8", { ignoreBOM: true });
const strict = new TextDecoder("utf-8", { ignoreBOM: true, fatal: true });

/** One decode per file: strict first (most files are valid), lossy only when that fails. */
function decodeUtf8(bytes: Uint8Array): { text: string; valid: boolean } {
  try {
    return { text: strict.decode(bytes), valid: true };
  } catch {
    return { text: lossy.decode(bytes), valid: false };
  }
}

const stripBom = (s: string): string => s.replace(/^\uFEFF/, "");

/** Byte offsets of the header block's end and the body's start, as `splitHeaderBlock` splits text. */
export function headerBoundary(bytes: Buffer): { headerEnd: number; bodyStart: number } | null {
  const lf = bytes.indexOf("\n\n");
  if (lf >= 0 && lf + 2 < bytes.length) return { headerEnd: lf, bodyStart: lf + 2 };
  const crlf = bytes.indexOf("\r\n\r\n");
  if (crlf >= 0) return { headerEnd: crlf, bodyStart: crlf + 4 };
  return lf >= 0 ? { headerEnd: lf, bodyStart: lf + 2 } : null;
}

/**
 * Reads a message from its bytes. `headersOnly` (or bytes over MAX_FILE_BYTES) keeps the body
 * out; `bytes` may then be just the head of the file.
 */
export async function readMessage(bytes: Buffer, headersOnly = bytes.length > MAX_FILE_BYTES): Promise<MessageText> {
  const bound = headerBoundary(bytes);
  const region = headersOnly && bound ? bytes.subarray(0, bound.bodyStart) : bytes;
  const hasNul = region.includes(0);
  const { text, valid } = decodeUtf8(region);
  // Same split as `bound` (decoding keeps every LF and CR), now on text.
  const block = splitHeaderBlock(text);
  let headerPart = block.headerPart;
  // A head cut off before its empty line: drop the line the cut went through.
  if (headersOnly && !bound) headerPart = headerPart.slice(0, Math.max(headerPart.lastIndexOf("\n"), 0));
  const { headers: rawHeaders, problem: headerLimit } = readHeaderLines(stripBom(headerPart));
  const encoding = encodingOf(rawHeaders);
  const headers = encoding.encodedWords ? await decodeHeaders(rawHeaders) : rawHeaders;

  let body = "";
  if (hasNul || headersOnly) body = "";
  // Without an empty line the tool reads every line as a header; the text is kept as the body to show.
  else if (!bound) body = stripBom(text);
  else if (encoding.foreign) body = await decodeBody(bytes.subarray(bound.bodyStart), encoding);
  else body = block.body;

  return {
    referenceText: headersOnly && !bound ? headerPart : text,
    headers,
    headerLimit,
    body,
    hasHeaderBlock: bound !== null,
    headersOnly,
    validUtf8: valid,
    hasNul,
    encoding,
  };
}
