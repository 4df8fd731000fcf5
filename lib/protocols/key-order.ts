// A JS object lists integer-like keys ("123") first, whatever order they were set in; a protocol
// whose own tools keep file order (Python dicts) marks the order here, and the API writes the
// object's JSON in that order (lib/server/json.ts). Pure; safe anywhere.

/** Not enumerable, so equality checks and JSON.stringify never see it. */
export const KEY_ORDER: unique symbol = Symbol.for("mailroom.keyOrder");

export type Ordered<T extends object> = T & { readonly [KEY_ORDER]?: readonly string[] };

/** `obj` with its keys' intended order attached. */
export function withKeyOrder<T extends object>(obj: T, keys: readonly string[]): Ordered<T> {
  Object.defineProperty(obj, KEY_ORDER, { value: [...keys], enumerable: false });
  return obj;
}

/** The keys in their intended order (`Object.keys` for an object without one). */
export function orderedKeys(obj: object): readonly string[] {
  return (obj as Ordered<object>)[KEY_ORDER] ?? Object.keys(obj);
}
