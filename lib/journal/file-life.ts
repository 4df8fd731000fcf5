// The words the journal's one-file-per-message path (writer.ts) keeps messages by, as the catalog
// of the protocol it serves says them. Its SQL names them, and migrations 13 and 14 index the stuck
// and deleted statuses: so there is one set, and each is a plain word.
import "server-only";
import { WORD_PATTERN } from "@/lib/model";
import { CATALOGS } from "@/lib/protocols";
import type { FileLifecycle } from "@/lib/protocols/types";

function fileLife(): FileLifecycle & { held: string } {
  const with_ = CATALOGS.filter((c) => c.fileLife);
  const [catalog] = with_;
  // A second such protocol must share the words, or the writer and its indexes must learn more.
  if (with_.length !== 1 || !catalog?.fileLife || catalog.deadLetterStatus === undefined) {
    throw new Error(`the journal's file lifecycle needs exactly one catalog with fileLife and deadLetterStatus; found ${with_.length}`);
  }
  const life = { ...catalog.fileLife, held: catalog.deadLetterStatus };
  for (const word of [life.deleted, life.cleared, life.discarded, life.archive, life.stuck, life.held, ...life.kept]) {
    if (!WORD_PATTERN.test(word)) throw new Error(`the journal's file lifecycle word "${word}" is not a plain word`);
  }
  return life;
}

/** `held`: the status of a message a dead letter in the dead-letter area holds. */
export const FILE_LIFE = fileLife();
