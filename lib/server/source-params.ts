import "server-only";
// A source and one of its files (a log, a document) as a URL names them: each is one path part,
// so a name with a slash, a backslash or a leading dot (`..`) is refused before any lookup.
import { z } from "zod";

/** Source ids are `<root folder slug>-<protocol>` (lib/ingest/sources.ts). */
export const sourceIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,200}$/, "a source id is letters, digits, _ and -");

export const fileNameSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,200}$/, "a file name is one path part: letters, digits, _, . and -, not starting with a dot");

export const sourceFileParams = z.object({ source: sourceIdSchema, name: fileNameSchema });
