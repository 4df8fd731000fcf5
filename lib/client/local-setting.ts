// A reader's setting kept in localStorage: who listens for it, told when this tab sets it and when
// another tab does (the storage event), for useSyncExternalStore.

export interface LocalSettingListeners {
  subscribe(onChange: () => void): () => void;
  /** This tab changed it. */
  changed(): void;
}

export function localSettingListeners(storageKey: string): LocalSettingListeners {
  const listeners = new Set<() => void>();
  return {
    subscribe(onChange) {
      listeners.add(onChange);
      // Another tab changed it.
      const onStorage = (e: StorageEvent) => e.key === storageKey && onChange();
      window.addEventListener("storage", onStorage);
      return () => {
        listeners.delete(onChange);
        window.removeEventListener("storage", onStorage);
      };
    },
    changed() {
      for (const l of listeners) l();
    },
  };
}
