import type { TranslationKey } from '../../shared/i18n/keys';

/**
 * A success toast (3 s). The toasts' module is loaded on demand, as the rest of the app does: it stays one
 * chunk of its own that the portal's first load counts.
 */
export function notifySuccess(key: TranslationKey, values?: Record<string, string | number>): void {
  void import('../../shared/ui/toasts').then((toasts) => toasts.notifySuccess(key, values));
}
