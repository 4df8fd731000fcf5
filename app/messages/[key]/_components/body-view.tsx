"use client";

import { YamlTree } from "@/components/yaml-tree";
import { buttonClass } from "@/components/ui/button";
import { Tabs, type Tab } from "@/components/ui/tabs";
import { keys } from "@/lib/client/keys";
import type { MessageDetail } from "@/lib/model";
import { MAX_FILE_BYTES } from "@/lib/protocols/types";
import { Pre, RawView } from "./raw-view";

/** What an empty body means: a file over 8 MiB is journaled by its headers only. */
function emptyBodyNote(m: MessageDetail): string {
  if (m.size <= MAX_FILE_BYTES) return "The body is empty.";
  if (m.path !== null) return "The file is over 8 MiB, so only its headers are shown: download it to read the body.";
  // A journal from before heads were kept (migration 17) has none of a file it never read again.
  return m.headers.length > 0
    ? "The file was over 8 MiB and is gone: the journal kept only its headers."
    : "The file was over 8 MiB and is gone: the journal kept none of its content.";
}

/** The body: structured (parsed YAML), plain text, or the raw file; plus a download link. */
export function BodyView({ message: m }: { message: MessageDetail }) {
  const structured = m.data !== null && typeof m.data === "object";
  const tabs: Tab[] = [
    ...(structured && m.data !== null
      ? [{ id: "structured", label: "Structured", render: () => <div className="px-4 py-3"><YamlTree value={m.data ?? null} /></div> }]
      : []),
    { id: "text", label: "Text", render: () => <Pre text={m.body} empty={emptyBodyNote(m)} /> },
    { id: "raw", label: "Raw file", render: () => <RawView messageKey={m.key} /> },
  ];
  return (
    <Tabs
      label="Message body"
      tabs={tabs}
      initial={structured ? "structured" : "text"}
      actions={
        <a href={keys.raw(m.key)} download className={buttonClass("ghost", "py-1 text-xs")}>
          Download
        </a>
      }
    />
  );
}
