// A message's lifecycle across folders, as pure functions: where it was after each journal event
// and how long it stayed there ("12 s in queue/", "4 min processing", "gone after 2 h"). The words
// (folders, the dead-letter, retry and discard statuses) are the message's protocol's, from its catalog.
import { DEAD_LETTER_FOLDER, type HistoryEvent } from "@/lib/model";
import type { ProtocolCatalog } from "@/lib/protocols/types";
import { formatDuration, parseTime } from "./time";

export interface LifecycleStep {
  event: HistoryEvent;
  /** Where the message was after this event ("in queue/", "processing"), when the event changed it; else null. */
  state: string | null;
  /** How long it stayed there, until the next change (or until `now`): "12 s in queue/", "3 min processing so far". */
  spent: string | null;
  /** For the event that saw the file deleted: "gone after 2 h" (since first seen). */
  note: string | null;
  /** The operator's action that made this step ("requeue by operator"): shown with the step, not as one of its own. */
  cause: HistoryEvent | null;
  /** The event's own time when it is later than `now` (a file stamped by a clock that runs ahead): the step is shown at `now`. */
  future: string | null;
}

/**
 * An action is journaled once ingest has seen the move it made (lib/operations/finish.ts), so it
 * follows that move at once, unless it waited behind other ingest work; later than this, it is
 * shown on its own.
 */
const ACTION_AFTER_MOVE_MS = 10_000;
/** Later than `now` by more than this, an event is dated in the future; the page's clock ticks every 5 s. */
const FUTURE_AFTER_MS = 60_000;

/** Whether an event is an operator's action (finish.ts names them "requeue by operator", "retry by operator"…). */
const isOperatorAction = (e: HistoryEvent): boolean => e.kind.endsWith(" by operator");

interface Place {
  folder: string | null;
  status: string | null;
  gone: boolean;
}

/**
 * The folder a root-relative path is in, in its protocol's words: "processed/", "queue/"… The
 * innermost folder word names it (queue/leader/processed/ is processed/), but an archived file
 * keeps its path under the archive, which names it wherever it is.
 */
export function folderOf(path: string, catalog: ProtocolCatalog): string | null {
  const parts = path.split("/").slice(0, -1);
  const archive = catalog.fileLife?.archive;
  const folder = archive !== undefined && parts.includes(archive) ? archive : parts.findLast((p) => catalog.folders.includes(p));
  return folder === undefined ? null : `${folder}/`;
}

/** Where an operator's discard puts a message, and the status it then has: its catalog's fileLife, when it has one. */
function archived(catalog: ProtocolCatalog): Partial<Place> {
  const life = catalog.fileLife;
  return life ? { folder: `${life.archive}/`, status: life.discarded, gone: false } : {};
}

// The journal's event details (lib/journal/events.ts, writer.ts) that say where the file went.
const SEEN_IN = /^first seen in (\S+).* as (\w+)$/;
/** In a first sighting's detail (message-row.ts firstSeenDetail): the message was known from its dead letter. */
const KNOWN_FROM_LETTER = "known from a dead letter";
const MOVED_TO = / → (\S+?)(?: \(|$)/;
const BACK_IN = /^back in (\S+) as (\w+)$/;

/** A fact of an event's typed data (events.data): a string, null, or undefined when the event has no such fact. */
function fact(e: HistoryEvent, name: string): string | null | undefined {
  const v = e.data?.[name];
  return typeof v === "string" || v === null ? v : undefined;
}

/**
 * Where a message was after an event, from the facts it was journaled with (its path, folder and
 * status); undefined when it has none of them (a journal older than them), so its detail is read.
 */
function placeFromData(e: HistoryEvent, catalog: ProtocolCatalog): Partial<Place> | undefined {
  const [path, status, to, toFolder] = [fact(e, "path"), fact(e, "status"), fact(e, "to"), fact(e, "toFolder")];
  switch (e.kind) {
    case "seen":
      if (path === undefined && status === undefined) return undefined;
      return { folder: path ? folderOf(path, catalog) : null, status: status ?? null, gone: e.detail.includes(KNOWN_FROM_LETTER) };
    case "status":
      if (!to) return undefined;
      return to === catalog.fileLife?.discarded ? archived(catalog) : { status: to };
    case "moved":
      if (to === undefined) return undefined;
      return to === null ? {} : { folder: toFolder ? `${toFolder}/` : folderOf(to, catalog), gone: false };
    // An entry its file was rewritten without (a shogun task overwritten by the next): its stay there ended then.
    case "trimmed":
      return { gone: true };
    default:
      return undefined;
  }
}

/** Where a message was after an event, as its facts or else its detail say; null when it does not move it. */
export function placeAfter(e: HistoryEvent, catalog: ProtocolCatalog): Partial<Place> | null {
  const typed = placeFromData(e, catalog);
  if (typed !== undefined) return typed;
  const d = e.detail;
  const folderOfPath = (path: string) => folderOf(path, catalog);
  const statusChange = / \((\w+) → (\w+)\)$/.exec(d);
  const moveTo = MOVED_TO.exec(d);
  switch (e.kind) {
    case "seen": {
      const m = SEEN_IN.exec(d);
      return m ? { folder: folderOfPath(m[1] ?? ""), status: m[2] ?? null, gone: d.includes(KNOWN_FROM_LETTER) } : {};
    }
    case "moved":
    case "retried":
    case "discarded":
    case "restored": {
      const to = moveTo?.[1];
      const place: Partial<Place> = to === undefined || to === "(gone)" ? {} : { folder: folderOfPath(to), gone: false };
      // A retry or a discard that names no status leaves the message in the one its protocol gives it.
      const implied = e.kind === "retried" ? catalog.retryWaits?.[0] : e.kind === "discarded" ? catalog.fileLife?.discarded : undefined;
      if (statusChange) place.status = statusChange[2];
      else if (implied !== undefined) place.status = implied;
      return place;
    }
    case "requeued": {
      const m = BACK_IN.exec(d);
      return m ? { folder: folderOfPath(m[1] ?? ""), status: m[2] ?? null, gone: false } : {};
    }
    case "status": {
      const m = /^(\w+) → (\w+)$/.exec(d);
      if (!m) return null;
      // A dead message is discarded when its dead letter is archived (writer.ts settleHeldStatus): it lives on there.
      return m[2] !== undefined && m[2] === catalog.fileLife?.discarded ? archived(catalog) : { status: m[2] ?? null };
    }
    case "gone":
      return { gone: true, status: /now (\w+)$/.exec(d)?.[1] ?? null };
    case "dead-lettered": {
      // A journal started after the dead letter was archived (requeued or discarded) knows it from there.
      const held = /^dead letter (\S+)/.exec(d)?.[1];
      const inArchive = held !== undefined && catalog.fileLife !== undefined && folderOfPath(held) === `${catalog.fileLife.archive}/`;
      return inArchive ? archived(catalog) : { folder: `${DEAD_LETTER_FOLDER}/`, status: catalog.deadLetterStatus ?? null };
    }
    default:
      return null;
  }
}

/** "processing", "waiting to retry", "in queue/"; null when the message is gone or nothing is known. */
export function describePlace(p: Place, catalog: ProtocolCatalog): string | null {
  // A dead message lives on as its dead letter, though its own file was deleted (IGNITE deletes it
  // once the dead letter is written).
  if (p.status !== null && p.status === catalog.deadLetterStatus) return `in ${DEAD_LETTER_FOLDER}/`;
  if (p.gone) return null;
  if (p.status !== null && catalog.working?.includes(p.status)) return p.status;
  if (p.status === "error") return "failed (error)";
  if (p.status !== null && catalog.retryWaits?.includes(p.status)) return "waiting to retry";
  return p.folder ? `in ${p.folder}` : null;
}

function span(ms: number): string {
  return ms < 1000 ? "<1 s" : formatDuration(ms);
}

/**
 * Every event with the place it led to and the time spent there, but an operator's action that
 * made the move just before it, which is that move's cause. `catalog`: the message's protocol's.
 * `now` (when known) measures the present step.
 */
export function lifecycleSteps(history: HistoryEvent[], catalog: ProtocolCatalog, now: number | null = null): LifecycleStep[] {
  const place: Place = { folder: null, status: null, gone: false };
  const first = parseTime(history[0]?.at);
  const steps: (LifecycleStep & { t: number | null })[] = history.map((raw) => {
    const stamped = parseTime(raw.at);
    const future = now !== null && stamped !== null && stamped - now > FUTURE_AFTER_MS;
    // Shown, and measured, as of now: a step cannot have happened later than the present.
    const event = future ? { ...raw, at: new Date(now).toISOString() } : raw;
    const t = future ? now : stamped;
    const change = placeAfter(event, catalog);
    if (change) Object.assign(place, change);
    const state = change ? describePlace(place, catalog) : null;
    const note = event.kind === "gone" && t !== null && first !== null ? `gone after ${span(Math.max(0, t - first))}` : null;
    return { event, state, spent: null, note, cause: null, future: future ? raw.at : null, t };
  });
  // A place lasts until the next event that changes the place. A deletion or a status change that
  // leaves it where it was (the original's deletion once dead-lettered) does not end the stay, nor
  // does the dead letter a message was first known from; a move, even to a folder of the same
  // name, does, and so does another dead letter (the message left and died again, unseen).
  let open: (typeof steps)[number] | null = null;
  let letterSeen = false;
  for (const step of steps) {
    const { kind } = step.event;
    const itsLetter = kind === "dead-lettered" && !letterSeen && open?.event.kind === "seen" && open.event.detail.includes(KNOWN_FROM_LETTER);
    const stays = (kind === "gone" || kind === "status" || itsLetter) && step.state !== null && step.state === open?.state;
    if (stays && itsLetter) letterSeen = true;
    const changes = placeAfter(step.event, catalog) !== null && !stays;
    if (!changes) continue;
    if (open?.state && open.t !== null && step.t !== null) open.spent = `${span(Math.max(0, step.t - open.t))} ${open.state}`;
    open = step;
    letterSeen = false;
  }
  if (open?.state && open.t !== null && now !== null) open.spent = `${span(Math.max(0, now - open.t))} ${open.state} so far`;
  return withCauses(steps).map(({ event, state, spent, note, cause, future }) => ({ event, state, spent, note, cause, future }));
}

/** Steps shown before and after the fold: the first sighting and where it went, and the latest few. */
const HEAD_STEPS = 2;
const TAIL_STEPS = 4;

/**
 * A long lifecycle (a message requeued and dead-lettered again and again) as its first steps,
 * the latest ones, and the repeated middle folded away; short ones are not folded.
 */
export function foldSteps<T>(steps: readonly T[]): { head: T[]; folded: T[]; tail: T[] } {
  if (steps.length <= HEAD_STEPS + TAIL_STEPS + 1) return { head: [...steps], folded: [], tail: [] };
  return { head: steps.slice(0, HEAD_STEPS), folded: steps.slice(HEAD_STEPS, -TAIL_STEPS), tail: steps.slice(-TAIL_STEPS) };
}

/** The path a move (or first sighting) put the file at, as the event's detail says; else null. */
function pathAfter(e: HistoryEvent): string | null {
  switch (e.kind) {
    case "seen":
      return SEEN_IN.exec(e.detail)?.[1] ?? null;
    case "requeued":
      return BACK_IN.exec(e.detail)?.[1] ?? null;
    case "moved":
    case "retried":
    case "discarded":
    case "restored": {
      const to = MOVED_TO.exec(e.detail)?.[1];
      return to && to !== "(gone)" ? to : null;
    }
    default:
      return null;
  }
}

/** Whether an action's detail ("from → to, note (from actor)", finish.ts) names `path` past its arrow: where it put a file. */
function actionLeadsTo(action: HistoryEvent, path: string): boolean {
  const arrow = action.detail.indexOf(" → ");
  return arrow >= 0 && action.detail.includes(path, arrow);
}

/**
 * One step per action: an operator's action joins the move just before it as that move's cause,
 * when the action put a file where that move did (an agent's own move may come in between).
 */
function withCauses<S extends LifecycleStep & { t: number | null }>(steps: S[]): S[] {
  const out: S[] = [];
  for (const step of steps) {
    const move = out.at(-1);
    const to = move ? pathAfter(move.event) : null;
    const follows = move && move.t !== null && step.t !== null && step.t >= move.t && step.t - move.t <= ACTION_AFTER_MOVE_MS;
    if (move && follows && to !== null && isOperatorAction(step.event) && !move.cause && actionLeadsTo(step.event, to)) move.cause = step.event;
    else out.push(step);
  }
  return out;
}
