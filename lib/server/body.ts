import "server-only";
import { ApiError } from "./errors";

/**
 * A request's body as UTF-8 text, read with a cap: a Content-Length over `maxBytes` is refused
 * before reading, and the stream is cancelled as soon as more than `maxBytes` arrive (a 413
 * either way), so a chunked body with no length costs at most `maxBytes` plus one chunk.
 */
export async function readBodyText(request: Request, maxBytes: number): Promise<string> {
  const tooLarge = () => new ApiError(413, "too_large", `The request is larger than ${maxBytes} bytes; nothing was written.`);
  const declared = request.headers.get("content-length");
  if (declared !== null && /^\d+$/.test(declared) && Number(declared) > maxBytes) throw tooLarge();

  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body?.getReader();
  if (reader) {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => undefined);
        throw tooLarge();
      }
      chunks.push(value);
    }
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new ApiError(400, "bad_json", "The request body is not valid UTF-8.");
  }
}

/** A request's JSON body, read with readBodyText's cap; an empty body is a 400. */
export async function readJsonBody(request: Request, maxBytes: number): Promise<unknown> {
  const text = await readBodyText(request, maxBytes);
  if (text.trim() === "") throw new ApiError(400, "bad_json", "The request has no body: send a JSON object.");
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new ApiError(400, "bad_json", `The request body is not valid JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
}
