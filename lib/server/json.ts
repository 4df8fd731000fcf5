import { orderedKeys } from "@/lib/protocols/key-order";

/**
 * JSON text of a response object whose direct members may carry a key order (KEY_ORDER), written
 * in that order: `JSON.stringify` would put integer-like keys first. Everything else is as
 * `JSON.stringify` writes it.
 */
export function jsonInOrder(value: Record<string, unknown>): string {
  const member = (v: unknown): string => {
    if (v === null || typeof v !== "object" || Array.isArray(v)) return JSON.stringify(v);
    const obj = v as Record<string, unknown>;
    const parts = orderedKeys(obj).filter((k) => obj[k] !== undefined).map((k) => `${JSON.stringify(k)}:${JSON.stringify(obj[k])}`);
    return `{${parts.join(",")}}`;
  };
  const parts = Object.keys(value).filter((k) => value[k] !== undefined).map((k) => `${JSON.stringify(k)}:${member(value[k])}`);
  return `{${parts.join(",")}}`;
}

/** A 200 JSON response written by jsonInOrder. */
export function orderedJsonResponse(value: Record<string, unknown>): Response {
  return new Response(jsonInOrder(value), { headers: { "content-type": "application/json" } });
}
