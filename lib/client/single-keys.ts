// Shortcuts of one character key (j, k, /, ?, the presenter's v, p and space) can be turned off
// (WCAG 2.1.4): speech input types letters, and a word said near the page would move the selection
// or leave it. Kept in localStorage, as the live settings are; on unless turned off.
import { useSyncExternalStore } from "react";
import { localSettingListeners } from "./local-setting";

export const SINGLE_KEYS_STORAGE_KEY = "mailroom.singleKeys";

const setting = localSettingListeners(SINGLE_KEYS_STORAGE_KEY);

/** Whether one-character shortcuts are on (in a handler; on the server, and where storage fails, they are). */
export function singleKeysOn(): boolean {
  try {
    return window.localStorage.getItem(SINGLE_KEYS_STORAGE_KEY) !== "off";
  } catch {
    return true;
  }
}

/** Whether `key` (a KeyboardEvent's) is a one-character shortcut's, which the setting turns off. Esc, Enter and the arrows are not. */
export const isSingleCharacterKey = (key: string): boolean => key.length === 1;

/** A key press a shortcut may take: any but a one-character key while those are off. */
export const shortcutKeyAllowed = (key: string): boolean => !isSingleCharacterKey(key) || singleKeysOn();

export function setSingleKeys(on: boolean): void {
  window.localStorage.setItem(SINGLE_KEYS_STORAGE_KEY, on ? "on" : "off");
  setting.changed();
}

export function useSingleKeys(): boolean {
  return useSyncExternalStore(setting.subscribe, singleKeysOn, () => true);
}
