import type { ReactNode } from "react";
import type { YamlValue } from "@/lib/model";

const MAX_DEPTH = 40;

/**
 * A parsed YAML body shown with its structure: mappings as definition lists, sequences as
 * ordered lists, multi-line strings with their line breaks. Everything is rendered as text.
 */
export function YamlTree({ value }: { value: YamlValue }) {
  return (
    <div className="text-sm leading-relaxed">
      <YamlNode value={value} depth={0} />
    </div>
  );
}

function YamlNode({ value, depth }: { value: YamlValue; depth: number }) {
  if (depth > MAX_DEPTH) return <span className="italic text-zinc-500 dark:text-zinc-400">…nested too deep to show</span>;
  if (Array.isArray(value)) {
    if (value.length === 0) return <Muted>[] (empty list)</Muted>;
    return (
      <ol className="space-y-1">
        {value.map((item, i) => (
          <li key={i} className="flex gap-2">
            <span aria-hidden className="select-none font-mono text-zinc-500 dark:text-zinc-400">
              -
            </span>
            <div className="min-w-0 flex-1">
              <YamlNode value={item} depth={depth + 1} />
            </div>
          </li>
        ))}
      </ol>
    );
  }
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value);
    if (entries.length === 0) return <Muted>{"{}"} (empty map)</Muted>;
    return (
      <dl className="space-y-1">
        {entries.map(([k, v]) => {
          const nested = v !== null && typeof v === "object" && (Array.isArray(v) ? v.length > 0 : Object.keys(v).length > 0);
          return (
            <div key={k} className={nested ? "" : "flex flex-wrap gap-x-2"}>
              <dt className="shrink-0 font-mono text-xs leading-6 font-medium text-sky-800 dark:text-sky-300">{k}:</dt>
              <dd className={nested ? "ml-1 border-l border-zinc-200 pl-3 dark:border-zinc-700" : "min-w-0 flex-1"}>
                <YamlNode value={v} depth={depth + 1} />
              </dd>
            </div>
          );
        })}
      </dl>
    );
  }
  return <Scalar value={value} />;
}

function Scalar({ value }: { value: string | number | boolean | null }) {
  if (value === null) return <Muted>null</Muted>;
  if (typeof value === "boolean") return <span className="font-mono text-violet-700 dark:text-violet-300">{String(value)}</span>;
  if (typeof value === "number") return <span className="font-mono tabular-nums text-emerald-700 dark:text-emerald-300">{value}</span>;
  if (value === "") return <Muted>(empty)</Muted>;
  return <span className="whitespace-pre-wrap break-words">{value}</span>;
}

function Muted({ children }: { children: ReactNode }) {
  return <span className="font-mono text-xs italic text-zinc-500 dark:text-zinc-400">{children}</span>;
}
