import { cn } from "@/components/ui/cn";
import { controlClass, describedBy, FieldNote } from "./field";

interface Props {
  agents: readonly string[];
  picked: string[];
  other: string;
  createQueues: boolean;
  error?: string;
  onPick: (picked: string[]) => void;
  onOther: (other: string) => void;
  onCreateQueues: (on: boolean) => void;
  onBlur: () => void;
}

/** To: the workspace's agents as checkboxes, plus typed names and the create-queues switch. */
export function Recipients({ agents, picked, other, createQueues, error, onPick, onOther, onCreateQueues, onBlur }: Props) {
  const toggle = (agent: string, on: boolean) => onPick(on ? [...picked, agent] : picked.filter((a) => a !== agent));
  return (
    <fieldset aria-describedby={describedBy("compose-to", "hint", error)} className="space-y-2">
      <legend className="text-sm font-medium text-zinc-700 dark:text-zinc-300">To</legend>
      {agents.length ? (
        <ul className="flex flex-wrap gap-2">
          {agents.map((agent) => {
            const on = picked.includes(agent);
            return (
              <li key={agent}>
                <label
                  className={cn(
                    "inline-flex cursor-pointer items-center gap-1.5 rounded-md border px-2 py-1 font-mono text-xs focus-within:ring-2 focus-within:ring-sky-500",
                    on ? "border-sky-400 bg-sky-50 dark:border-sky-700 dark:bg-sky-950/40" : "border-zinc-300 dark:border-zinc-700",
                  )}
                >
                  <input type="checkbox" checked={on} onChange={(e) => toggle(agent, e.target.checked)} onBlur={onBlur} className="accent-sky-600" />
                  {agent}
                </label>
              </li>
            );
          })}
        </ul>
      ) : (
        <p className="text-sm text-zinc-500 dark:text-zinc-400">This workspace has no agent queues yet; type the recipients below.</p>
      )}
      <div className="space-y-1">
        <label htmlFor="compose-to-other" className="block text-xs font-medium text-zinc-600 dark:text-zinc-400">Other recipients</label>
        <input
          id="compose-to-other"
          type="text"
          value={other}
          onChange={(e) => onOther(e.target.value)}
          onBlur={onBlur}
          placeholder="agent names, comma-separated"
          autoComplete="off"
          spellCheck={false}
          aria-invalid={error ? true : undefined}
          // The field that takes the focus on a send without recipients says why itself, not only its group.
          aria-describedby={error ? "compose-to-error" : undefined}
          className={controlClass(error, "font-mono")}
        />
      </div>
      <label className="inline-flex items-center gap-2 text-sm">
        <input type="checkbox" checked={createQueues} onChange={(e) => onCreateQueues(e.target.checked)} className="accent-sky-600" />
        Create a queue folder for a recipient that has none
      </label>
      <FieldNote id="compose-to" hint="One file is written into each recipient's queue." error={error} />
    </fieldset>
  );
}
