// A thread as a sequence diagram: agents as lanes across, one row per message down, one arrow
// from the sender to each recipient. Pure.
import type { MessageSummary } from "@/lib/model";

export const LANE_W = 148;
/** Lanes shrink to this to fit the screen before the diagram scrolls sideways. */
export const MIN_LANE_W = 104;
/**
 * On a screen with no mouse to scroll by (the presenter), lanes shrink this far first: at 1280 × 720
 * an IGNITE thread's nine lanes (1,012 px at 104) did not fit the stage's 900, and the evaluator's
 * and innovator's lanes were off it.
 */
export const FIT_MIN_LANE_W = 80;
export const ROW_H = 34;
export const GUTTER = 76;
/** A thread pane's height (graph or sequence) on a page that scrolls; a page made to fit its screen (the presenter) passes its own. */
export const THREAD_PANE_HEIGHT = "h-[70vh] min-h-96";

export interface SequenceArrow {
  id: string;
  /** Index of the message in the thread (its replay step); also its row. */
  index: number;
  message: MessageSummary;
  from: number;
  to: number;
  recipient: string;
}

export interface SequenceLayout {
  lanes: string[];
  arrows: SequenceArrow[];
  laneW: number;
  width: number;
  height: number;
}

const UNKNOWN = "(unknown)";

/** Lanes in order of first appearance; a message without recipients points at the queue that holds it. */
export function sequenceLayout(messages: MessageSummary[], available = Infinity, minLaneW = MIN_LANE_W): SequenceLayout {
  const lanes: string[] = [];
  const lane = (name: string): number => {
    let i = lanes.indexOf(name);
    if (i < 0) i = lanes.push(name) - 1;
    return i;
  };
  const arrows: SequenceArrow[] = [];
  messages.forEach((m, index) => {
    const from = lane(m.from ?? UNKNOWN);
    const recipients = [...new Set([...m.to, ...m.cc])];
    for (const recipient of recipients.length > 0 ? recipients : [m.agent]) {
      arrows.push({ id: `${m.key}>${recipient}`, index, message: m, from, to: lane(recipient), recipient });
    }
  });
  const n = Math.max(lanes.length, 1);
  const laneW = Math.floor(Math.max(minLaneW, Math.min(LANE_W, (available - GUTTER) / n)));
  return { lanes, arrows, laneW, width: GUTTER + n * laneW, height: Math.max(messages.length, 1) * ROW_H };
}

export const laneX = (i: number, laneW = LANE_W) => GUTTER + i * laneW + laneW / 2;
export const rowY = (index: number) => index * ROW_H + ROW_H / 2;

/** Rows to draw for a viewport (with a margin), for long threads. */
export function visibleRows(scrollTop: number, viewHeight: number, count: number, margin = 15): [number, number] {
  const first = Math.max(0, Math.floor(scrollTop / ROW_H) - margin);
  const last = Math.min(count - 1, Math.ceil((scrollTop + viewHeight) / ROW_H) + margin);
  return [first, last];
}
