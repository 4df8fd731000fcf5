// Rows acted on stay where they were: a list that polls drops a requeued or discarded row, and the
// rows below would move up under the pointer, onto the next row's buttons. Pure.

/** A row no longer in the live list, kept at the place it had. */
export interface KeptRow<T> {
  item: T;
  /** The key of the row just above it when it was acted on; null for the first row. */
  after: string | null;
  /** Its index then: the place to keep when the row above has gone too. */
  index: number;
}

/** The live rows, with each kept row that left them put back below the row it followed. */
export function keepInPlace<T extends { key: string }>(live: readonly T[], kept: ReadonlyMap<string, KeptRow<T>>): T[] {
  const rows = [...live];
  const liveKeys = new Set(live.map((r) => r.key));
  for (const [key, k] of kept) {
    if (liveKeys.has(key)) continue;
    const above = k.after === null ? -1 : rows.findIndex((r) => r.key === k.after);
    const at = k.after === null ? 0 : above >= 0 ? above + 1 : Math.min(k.index, rows.length);
    rows.splice(at, 0, k.item);
  }
  return rows;
}

/** Where `key` sits in `rows`, as a kept row records it. */
export function placeOf<T extends { key: string }>(rows: readonly T[], key: string): Omit<KeptRow<T>, "item"> {
  const index = Math.max(0, rows.findIndex((r) => r.key === key));
  return { after: index === 0 ? null : (rows[index - 1]?.key ?? null), index };
}
