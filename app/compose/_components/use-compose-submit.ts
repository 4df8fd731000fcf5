"use client";
// What every compose form does to send: the first invalid field focused instead of a request, one
// request at a time, a delivery warning confirmed only once, and Ctrl/⌘+Enter to send.
import { useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import { postCompose, type AnyComposeRequest, type SentItem } from "@/lib/client/compose";

interface Options {
  request: AnyComposeRequest;
  readOnly: boolean;
  /** The id of the first field still invalid (focused instead of sending), or null when all are fine. */
  firstInvalid: () => string | null;
}

export function useComposeSubmit({ request, readOnly, firstInvalid }: Options) {
  const formRef = useRef<HTMLFormElement>(null);
  const [submitted, setSubmitted] = useState(false);
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState<SentItem[] | null>(null);
  const [sendError, setSendError] = useState<unknown>(null);
  const [confirmed, setConfirmed] = useState(false);
  // What was sent stays sent until an edit; a request under way is the only one. A ref, not the
  // state: two quick Ctrl+Enter presses both saw `sending` false, and requestSubmit() fires even
  // when the Send button is disabled, so a sent message went again.
  const busy = useRef(false);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (busy.current || sent !== null) return;
    setSubmitted(true);
    const invalid = firstInvalid();
    if (invalid) {
      document.getElementById(invalid)?.focus();
      return;
    }
    busy.current = true;
    setSending(true);
    setSendError(null);
    try {
      setSent(await postCompose(confirmed ? { ...request, confirmWarnings: true } : request));
    } catch (err) {
      setSendError(err);
    } finally {
      busy.current = false;
      setSending(false);
    }
  }

  function onKeyDown(e: KeyboardEvent<HTMLFormElement>) {
    if ((e.ctrlKey || e.metaKey) && e.key === "Enter" && !readOnly) {
      e.preventDefault();
      // The Send button's own click: nothing while it is disabled (sent, sending, a warning not confirmed).
      formRef.current?.querySelector<HTMLButtonElement>('button[type="submit"]')?.click();
    }
  }

  /** After an edit: what was sent or confirmed was for the message before it. */
  function edited() {
    setConfirmed(false);
    setSent(null);
    setSendError(null);
  }

  return { formRef, submitted, sending, sent, sendError, confirmed, setConfirmed, onSubmit, onKeyDown, edited };
}
