import type { TranslationKey } from '../i18n/keys';

/**
 * Toasts for lazily loaded screens: the toasts' module loads on demand and stays one chunk of its own
 * (the portal's first load counts it), whatever the screens that use it.
 */
export function notifySuccess(key: TranslationKey, values?: Record<string, string | number>): void {
  void import('./toasts').then((toasts) => toasts.notifySuccess(key, values));
}

/** An error toast of a screen's own (HTTP errors go through the catalogue). */
export function notifyFailure(key: TranslationKey, values?: Record<string, string | number>): void {
  void import('./toasts').then((toasts) => toasts.notifyFailure(key, values));
}
