import { Fragment } from "react";
import { TABLE_SCROLL } from "@/components/ui/table-scroll";
import { inlineParts, markdownBlocks, type Block } from "@/lib/client/markdown-blocks";

/** One line's bold and code spans, as text (React escapes every character). */
function Line({ text }: { text: string }) {
  return inlineParts(text).map((p, i) =>
    p.style === "strong" ? <strong key={i}>{p.text}</strong>
    : p.style === "code" ? <code key={i} className="rounded bg-zinc-100 px-1 font-mono text-[0.9em] dark:bg-zinc-800">{p.text}</code>
    : <Fragment key={i}>{p.text}</Fragment>,
  );
}

const HEADING_CLASS = { 1: "text-lg font-semibold", 2: "pt-2 text-base font-semibold", 3: "text-sm font-semibold" } as const;

function BlockView({ block }: { block: Block }) {
  switch (block.kind) {
    case "heading": {
      const Tag = (["h2", "h3", "h4"] as const)[block.level - 1] ?? "h4";
      return <Tag className={HEADING_CLASS[block.level]}><Line text={block.text} /></Tag>;
    }
    case "list":
      return <ul className="list-disc space-y-0.5 pl-5">{block.items.map((item, i) => <li key={i}><Line text={item} /></li>)}</ul>;
    case "code":
      return <pre className="overflow-x-auto rounded-md bg-zinc-50 p-3 font-mono text-xs ring-1 ring-zinc-200 dark:bg-zinc-900 dark:ring-zinc-800">{block.text}</pre>;
    case "table":
      return (
        <div className={TABLE_SCROLL}>
          <table className="min-w-full text-left text-sm">
            <thead className="border-b border-zinc-200 dark:border-zinc-800">
              <tr>{block.head.map((h, i) => <th key={i} scope="col" className="px-2 py-1 font-medium"><Line text={h} /></th>)}</tr>
            </thead>
            <tbody className="divide-y divide-zinc-100 dark:divide-zinc-800">
              {block.rows.map((row, r) => <tr key={r}>{row.map((c, i) => <td key={i} className="px-2 py-1 align-top"><Line text={c} /></td>)}</tr>)}
            </tbody>
          </table>
        </div>
      );
    case "paragraph":
      return <p>{block.lines.map((l, i) => <Fragment key={i}>{i > 0 ? <br /> : null}<Line text={l} /></Fragment>)}</p>;
  }
}

/** A Markdown document as the few shapes a status board uses; no HTML, link or image is ever made from it. */
export function MarkdownView({ text }: { text: string }) {
  return (
    <article className="space-y-3 break-words text-sm leading-6">
      {markdownBlocks(text).map((b, i) => <BlockView key={i} block={b} />)}
    </article>
  );
}
