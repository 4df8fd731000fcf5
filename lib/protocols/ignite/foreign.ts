// Messages not written by IGNITE's own builder (RFC 2047 words, base64/quoted-printable bodies,
// non-UTF-8 charsets) are decoded with mailparser so summaries and bodies show real text.
// IGNITE files themselves are raw UTF-8 and never take this path. No filesystem access.

/**
 * mailparser, loaded on first use: only files IGNITE did not write need it, and loading it took
 * 100 ms of every server start and of each ingest worker's.
 */
let mailparser: Promise<typeof import("mailparser")> | null = null;
async function simpleParser(source: Buffer) {
  // A failed load (out of file handles, say) is not remembered: the next file tries again.
  mailparser ??= import("mailparser").catch((err: unknown) => {
    mailparser = null;
    throw err;
  });
  return (await mailparser).simpleParser(source);
}

const ENCODED_WORD = /=\?[^?\s]+\?[bq]\?[^?\s]*\?=/i;
const PLAIN_CHARSETS = new Set(["utf-8", "utf8", "us-ascii", "ascii"]);
const TOKEN = /^[A-Za-z0-9_.:+-]{1,64}$/;

/** The last value of a header, matched case-insensitively (MIME names are, IGNITE's are not). */
export function mimeHeader(headers: readonly [string, string][], name: string): string {
  const lower = name.toLowerCase();
  let found = "";
  // Length first: lower-casing every header name for each lookup was a hot spot of a first scan.
  for (const [n, v] of headers) if (n.length === lower.length && n.toLowerCase() === lower) found = v;
  return found;
}

/** The `charset` parameter of a Content-Type value, lower-cased, or null. */
export function charsetOf(contentType: string): string | null {
  const m = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType);
  return m?.[1] ? m[1].toLowerCase() : null;
}

export interface Encoding {
  charset: string | null;
  transfer: string;
  encodedWords: boolean;
  /** True when the text needs MIME decoding to be read. */
  foreign: boolean;
}

export function encodingOf(headers: readonly [string, string][]): Encoding {
  const charset = charsetOf(mimeHeader(headers, "Content-Type"));
  const transfer = mimeHeader(headers, "Content-Transfer-Encoding").toLowerCase();
  const encodedWords = headers.some(([, v]) => ENCODED_WORD.test(v));
  const foreign =
    encodedWords ||
    transfer === "base64" ||
    transfer === "quoted-printable" ||
    (charset !== null && !PLAIN_CHARSETS.has(charset));
  return { charset, transfer, encodedWords, foreign };
}

/** One header value with its RFC 2047 words decoded (mailparser decodes `Subject` fully). */
export async function decodeHeaderValue(value: string): Promise<string> {
  if (!ENCODED_WORD.test(value) || /[\r\n]/.test(value)) return value;
  const parsed = await simpleParser(Buffer.from(`Subject: ${value}\r\n\r\n`, "utf8"));
  return parsed.subject ?? value;
}

export async function decodeHeaders(headers: readonly [string, string][]): Promise<[string, string][]> {
  return Promise.all(headers.map(async ([n, v]): Promise<[string, string]> => [n, await decodeHeaderValue(v)]));
}

/**
 * The body's text after transfer and charset decoding. mailparser only decodes text/plain and
 * text/html parts (text/x-yaml would be an attachment), so the body is handed over as text/plain.
 */
export async function decodeBody(body: Buffer, enc: Encoding): Promise<string> {
  const charset = enc.charset !== null && TOKEN.test(enc.charset) ? enc.charset : "utf-8";
  const transfer = TOKEN.test(enc.transfer) ? enc.transfer : "8bit";
  const head = `Content-Type: text/plain; charset="${charset}"\r\nContent-Transfer-Encoding: ${transfer}\r\n\r\n`;
  const parsed = await simpleParser(Buffer.concat([Buffer.from(head, "latin1"), body]));
  return parsed.text ?? "";
}
