import { Notice } from "@/components/ui/notice";

const code = "rounded bg-white/70 px-1 font-mono text-[0.85em] dark:bg-black/30";

/** Shown when MAILROOM_ROOT is empty: says exactly how to get started. */
export function NoWorkspace() {
  return (
    <Notice tone="info" title="No workspace configured">
      <p>
        Mailroom reads message queues from a workspace folder on disk. Point it at one by setting{" "}
        <code className={code}>MAILROOM_ROOT</code> and restarting, for example:
      </p>
      <pre className="my-2 overflow-x-auto rounded-md bg-white/70 px-3 py-2 font-mono text-xs dark:bg-black/30">
        MAILROOM_ROOT=/path/to/workspace npm start
      </pre>
      <p>
        The folder is the one that holds <code className={code}>.ignite/</code> (or <code className={code}>queue/</code>,{" "}
        <code className={code}>.claude/workflow/</code>, <code className={code}>.kicklang/</code>). Several folders can be
        given, separated by <code className={code}>:</code>.
      </p>
      <p>
        Just looking? Run <code className={code}>npm run demo</code> for a sample workspace with live agents.
      </p>
    </Notice>
  );
}
