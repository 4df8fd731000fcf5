import "server-only";
import type { WriterParts } from "./writer-parts";

/** A journaled message a new file may continue: where its file is (null once gone), and whose queue it is in. */
export interface ClaimCandidate {
  key: string;
  path: string | null;
  agent: string;
  /** A dead letter holds it: a file with its Message-ID that appears once it is gone is most likely its requeue. */
  held: boolean;
  /** Where its file is, or last was. */
  lastPath: string | null;
  retryCount: number;
}

type CandidateRow = Omit<ClaimCandidate, "held"> & { held: number };
const toCandidate = ({ held, ...c }: CandidateRow): ClaimCandidate => ({ ...c, held: held === 1 });
const HELD = "EXISTS (SELECT 1 FROM messages AS letter WHERE letter.dead_letter_of = messages.key)";
const CANDIDATE_COLUMNS = `key, path, agent, ${HELD} AS held, coalesce(path, last_path) AS lastPath, retry_count AS retryCount`;

/**
 * By name, where the file is or (once gone) where it last was: not any gone message without an
 * ID, whose content the new file would overwrite. Compared exactly: `_` is a LIKE wildcard.
 * Looked up among the messages without an ID (few), never by walking the agent's: `+agent` keeps
 * the planner off that index, which it chose before a first load's statistics existed. Every
 * `.mime` file asks this (a converted message's YAML name), so at a million messages the dead
 * letters journaled after the load each read all the earlier ones: 36 s of the load.
 */
export const CANDIDATES_BY_NAME_SQL =
  `SELECT ${CANDIDATE_COLUMNS} FROM messages WHERE source = ? AND message_id IS NULL AND +agent = ?
     AND substr(coalesce(path, last_path), -length(?) - 1) = '/' || ? ORDER BY updated_ms DESC`;

/** Messages a new file could be the continuation of: same Message-ID, or same agent and name. */
export function claimCandidates({ sql }: WriterParts, source: string, messageId: string | null, agent: string, fileName: string): ClaimCandidate[] {
  if (messageId) {
    return (sql(`SELECT ${CANDIDATE_COLUMNS} FROM messages WHERE source = ? AND message_id = ? ORDER BY updated_ms DESC`)
      .all(source, messageId) as CandidateRow[]).map(toCandidate);
  }
  return (sql(CANDIDATES_BY_NAME_SQL).all(source, agent, fileName, fileName) as CandidateRow[]).map(toCandidate);
}
