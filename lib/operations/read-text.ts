import "server-only";
// Reading a file an operation rewrites, for any protocol's writer: from one safe open, whole and
// valid UTF-8 only. Apart from target.ts (which reads the journal) so writers need no journal.
import { readInsideRoot, RefusedFile } from "@/lib/protocols/safe-open";
import { MAX_FILE_BYTES } from "@/lib/protocols/types";
import { ApiError } from "@/lib/server/errors";

// ignoreBOM: a BOM stays in the text, so a rewrite keeps it (as the IGNITE tools' utf-8 read does).
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** What an operation answers for a file Mailroom will not read (lib/protocols/safe-open.ts). */
export function refusalError(err: unknown, relPath: string): unknown {
  if (!(err instanceof RefusedFile)) return err;
  if (err.reason === "missing") return new ApiError(409, "source_gone", `${relPath} is no longer there: it moved or was deleted since the page loaded. Nothing was changed.`);
  if (err.reason === "unreadable") return new ApiError(409, "unreadable", `${err.message}. Nothing was changed.`);
  return new ApiError(409, "not_a_file", `${err.message}; Mailroom never changes it. Nothing was changed.`);
}

/**
 * A file a write reads first (a channel to find an entry in, a registry, an inbox), from the same
 * safe open: never through a link, never a pipe or device (a pipe there hung the request, and a
 * link or hard link could have a resend copy another file's text into a channel). `root` is the
 * folder it must be inside. Missing: null; refused: refusalError's 409.
 */
export async function readForWrite(root: string, relPath: string): Promise<Buffer | null> {
  try {
    return (await readInsideRoot(root, relPath)).bytes;
  } catch (err) {
    if (err instanceof RefusedFile && err.reason === "missing") return null;
    throw refusalError(err, relPath);
  }
}

/**
 * A root-relative file's bytes, and its text when they are valid UTF-8 (else null), from one safe
 * open: a move needs only the bytes, so a file cut mid-character can still be discarded.
 */
export async function readBytesInsideRoot(root: string, relPath: string): Promise<{ bytes: Buffer; text: string | null }> {
  const { bytes, tooLarge } = await readInsideRoot(root, relPath, MAX_FILE_BYTES).catch((err: unknown) => {
    throw refusalError(err, relPath);
  });
  if (tooLarge) throw new ApiError(413, "too_large", `${relPath} is larger than 8 MiB; Mailroom does not rewrite it.`);
  try {
    return { bytes, text: utf8.decode(bytes) };
  } catch {
    return { bytes, text: null };
  }
}

/** The 409 for rewriting a file that is not valid UTF-8. */
export const notUtf8 = (relPath: string) => new ApiError(409, "not_utf8", `${relPath} is not valid UTF-8, so rewriting it could damage it. Nothing was changed.`);

/** A root-relative file's text for a rewrite, from one safe open (any protocol's writer). */
export async function readTextInsideRoot(root: string, relPath: string): Promise<string> {
  const { text } = await readBytesInsideRoot(root, relPath);
  if (text === null) throw notUtf8(relPath);
  return text;
}

/**
 * A 409 unless the file still holds `planned`, the text a rewrite was planned from: a run waits its
 * turn behind queued scans, and the monitor may have rewritten the file meanwhile (a processed
 * message marked delivered, put back as retrying from the stale copy, was delivered twice).
 */
export async function assertStillText(root: string, relPath: string, planned: string): Promise<void> {
  if ((await readTextInsideRoot(root, relPath)) !== planned) {
    throw new ApiError(409, "changed", `${relPath} changed since this was planned (its agent or the queue monitor wrote it). Nothing was changed; look at it again.`);
  }
}
