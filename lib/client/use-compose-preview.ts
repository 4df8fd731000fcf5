import { useEffect, useState } from "react";
import useSWR from "swr";
import { previewCompose, type AnyComposeRequest, type PreviewFile } from "./compose";
import type { ApiClientError } from "./fetcher";

/** `value`, once it has stopped changing for `ms`. */
function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** The server-built files for a request (a dry run), refreshed as the form settles; null: no preview. */
export function useComposePreview(request: AnyComposeRequest | null, delayMs = 400) {
  const json = request ? JSON.stringify(request) : null;
  const settled = useDebounced(json, delayMs);
  const res = useSWR<PreviewFile[], ApiClientError | Error>(settled ? ["compose-preview", settled] : null, ([, body]: [string, string]) => previewCompose(body), {
    revalidateOnFocus: false,
    revalidateOnReconnect: false,
    shouldRetryOnError: false,
    keepPreviousData: true,
  });
  return { ...res, pending: json !== settled || res.isValidating };
}
