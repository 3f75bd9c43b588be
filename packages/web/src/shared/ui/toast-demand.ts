import { useSyncExternalStore } from 'react';

/**
 * Whether a toast was asked for yet. The toasts' container (Mantine's Notifications, ~8 KB gzipped)
 * loads on the first toast, not with the first page: most visits of the portal show none.
 */
let demanded = false;
const listeners = new Set<() => void>();

/** Called before a toast is shown: mounts the container (toasts raised meanwhile wait in the store). */
export function demandToasts(): void {
  if (demanded) return;
  demanded = true;
  for (const listener of listeners) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** True once a toast was asked for. */
export const useToastsDemanded = (): boolean => useSyncExternalStore(subscribe, () => demanded);
