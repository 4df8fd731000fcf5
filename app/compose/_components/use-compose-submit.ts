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

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setSubmitted(true);
    const invalid = firstInvalid();
    if (invalid) {
      document.getElementById(invalid)?.focus();
      return;
    }
    setSending(true);
    setSendError(null);
    try {
      setSent(await postCompose(confirmed ? { ...request, confirmWarnings: true } : request));
    } catch (err) {
      setSendError(err);
    } finally {
      setSending(false);
    }
  }

  function onKeyDown(e: KeyboardEvent<HTMLFormElement>) {
    if ((e.ctrlKey || e.metaKey) && e.key === "Enter" && !readOnly) {
      e.preventDefault();
      formRef.current?.requestSubmit();
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
