import { useSyncExternalStore } from 'react';

type Listener = () => void;

/** A tiny observable value for app-wide page states that live outside React (set by the HTTP catalogue). */
function observable<T>(initial: T) {
  let value = initial;
  const listeners = new Set<Listener>();
  return {
    get: () => value,
    set(next: T) {
      value = next;
      listeners.forEach((l) => l());
    },
    subscribe(listener: Listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** 503: the text that replaces the page body (null: the page shows normally). */
export const unavailable = observable<{ text: string | undefined } | null>(null);

export function useUnavailable() {
  return useSyncExternalStore(unavailable.subscribe, unavailable.get);
}

/** Bumped by "reload the current state": pages keyed on it mount again with fresh data. */
export const reloadCounter = observable(0);

export function useReloadKey(): number {
  return useSyncExternalStore(reloadCounter.subscribe, reloadCounter.get);
}

/**
 * True from the start of a sign-out until portal home has rendered: the page being left goes to portal
 * home at once, so that its guard never takes the ended session for an expired one (login).
 */
export const signingOut = observable(false);

export function useSigningOut(): boolean {
  return useSyncExternalStore(signingOut.subscribe, signingOut.get);
}
