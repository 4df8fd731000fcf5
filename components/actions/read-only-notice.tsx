import { Notice } from "../ui/notice";

/** Shown instead of the action buttons when the server runs read-only. */
export function ReadOnlyNotice({ className }: { className?: string }) {
  return (
    <Notice tone="neutral" title="Read-only" className={className}>
      <p>
        Mailroom runs with <code className="font-mono text-[0.85em]">MAILROOM_READONLY=1</code>, so requeue, retry, discard and restore
        are not available here. Restart it without that setting to manage messages.
      </p>
    </Notice>
  );
}
