"use client";

import { useWindowVirtualizer } from "@tanstack/react-virtual";
import { memo, useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { PAGE_SIZE } from "@/lib/client/config";
import type { MessageSummary } from "@/lib/model";
import { columnCount, MessageRow, MessageTableHead, TABLE_CLASS, TBODY_CLASS } from "./message-table";
import { TABLE_SCROLL } from "@/components/ui/table-scroll";

/** A row's height before one is measured (px). Every row is one line, so all rows are as tall as the first. */
const ROW_ESTIMATE = 35;
const OVERSCAN = 12;
/** The sticky site header: rows scrolled "into view" must not end up under it. */
const HEADER_PX = 56;

/** Rows re-render only when their message or selection changes (j/k touches two rows). */
const Row = memo(MessageRow);

/**
 * A message table that renders only the rows in (and near) the window: a real <table>, with
 * spacer rows standing in for the rest, aria-rowindex on each row and aria-rowcount on the
 * table (-1 while older pages remain), so the list scrolls as a page does at 100,000 rows.
 */
export function VirtualMessageList({
  items,
  caption,
  complete,
  selected,
  focusRequest,
  onLastRow,
  onScroll,
  showProtocol = false,
}: {
  items: MessageSummary[];
  caption: string;
  /** Every matching message is loaded, so the row count is known. */
  complete: boolean;
  /** Row index of the keyboard selection, or null. */
  selected: number | null;
  /** Changes each time the keyboard moves the selection: scroll to it and focus its link. */
  focusRequest: number;
  /** The last row rendered (including overscan): the owner loads older pages near the end. */
  onLastRow?: (index: number) => void;
  onScroll?: () => void;
  /** Each row says which protocol its message speaks. */
  showProtocol?: boolean;
}) {
  const tbodyRef = useRef<HTMLTableSectionElement>(null);
  const [margin, setMargin] = useState(0);
  const [rowHeight, setRowHeight] = useState(ROW_ESTIMATE);

  // Where the rows start in the page (the virtualizer counts window scroll from there), and how
  // tall a row is. Rows are uniform, so one is measured instead of each: measuring every row
  // makes the virtualizer recompute every position after it, which is slow at 100,000 rows.
  useLayoutEffect(() => {
    const measure = () => {
      const body = tbodyRef.current;
      if (!body) return;
      const top = Math.round(body.getBoundingClientRect().top + window.scrollY);
      setMargin((m) => (m === top ? m : top));
      const h = rowPitch(body);
      if (h) setRowHeight((old) => (Math.abs(old - h) < 0.05 ? old : h));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(document.body);
    return () => observer.disconnect();
  }, []);

  // Stable between renders: a new function makes the virtualizer recompute every row's position.
  const itemKey = useCallback((i: number) => items[i]?.key ?? i, [items]);
  const v = useWindowVirtualizer({
    count: items.length,
    estimateSize: () => rowHeight,
    overscan: OVERSCAN,
    scrollMargin: margin,
    scrollPaddingStart: HEADER_PX,
    // The server (and the first client render) draws the first page in full: readable without JS.
    initialRect: { width: 1280, height: PAGE_SIZE * ROW_ESTIMATE },
    getItemKey: itemKey,
    useFlushSync: false,
    onChange: (instance) => {
      if (instance.isScrolling) onScroll?.();
    },
  });
  useLayoutEffect(() => v.measure(), [v, rowHeight]);
  const rows = v.getVirtualItems();
  const first = rows[0];
  const last = rows.at(-1);
  const padTop = first ? Math.max(0, first.start - margin) : 0;
  const padBottom = last ? Math.max(0, v.getTotalSize() - (last.end - margin)) : 0;

  const lastIndex = last?.index ?? -1;
  useEffect(() => {
    if (lastIndex >= 0) onLastRow?.(lastIndex);
  }, [lastIndex, items.length, onLastRow]);

  // Keyboard selection: scroll its row into view, then (once it is rendered) focus its link.
  const pendingFocus = useRef<number | null>(null);
  // The request this list was mounted with is an old one (the list had emptied and came back):
  // acting on it would take the focus from wherever the reader is now, the search box say.
  const handledRequest = useRef(focusRequest);
  useEffect(() => {
    if (focusRequest === handledRequest.current || selected === null) return;
    handledRequest.current = focusRequest;
    pendingFocus.current = selected;
    v.scrollToIndex(selected, { align: "auto" });
    // Only a new request scrolls; the selection's index also moves when rows arrive above it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [focusRequest]);
  useEffect(() => {
    const i = pendingFocus.current;
    if (i === null) return;
    const link = tbodyRef.current?.querySelector<HTMLAnchorElement>(`tr[data-index="${i}"] a`);
    if (!link) return;
    pendingFocus.current = null;
    link.focus({ preventScroll: true });
  });

  const cols = columnCount(false);
  return (
    <div className={TABLE_SCROLL}>
      <table className={TABLE_CLASS} aria-rowcount={complete ? items.length + 1 : -1}>
        <caption className="sr-only">{caption}</caption>
        <MessageTableHead indexed />
        <tbody ref={tbodyRef} className={TBODY_CLASS}>
          {padTop > 0 ? <Spacer height={padTop} cols={cols} /> : null}
          {rows.map((r) => {
            const m = items[r.index];
            return m ? <Row key={r.key} message={m} index={r.index} selected={r.index === selected} showProtocol={showProtocol} /> : null;
          })}
          {padBottom > 0 ? <Spacer height={padBottom} cols={cols} /> : null}
        </tbody>
      </table>
    </div>
  );
}

/** The distance from one row to the next, averaged over the rendered rows (collapsed borders round each row differently). */
function rowPitch(body: HTMLElement): number | null {
  const rows = body.querySelectorAll<HTMLElement>("tr[data-index]");
  const first = rows[0];
  const last = rows[rows.length - 1];
  if (!first || !last) return null;
  if (first === last) return first.getBoundingClientRect().height || null;
  const span = Number(last.dataset.index) - Number(first.dataset.index);
  return span > 0 ? (last.getBoundingClientRect().top - first.getBoundingClientRect().top) / span : null;
}

function Spacer({ height, cols }: { height: number; cols: number }) {
  return (
    <tr aria-hidden="true" style={{ border: 0 }}>
      <td colSpan={cols} style={{ height, padding: 0, border: 0 }} />
    </tr>
  );
}
