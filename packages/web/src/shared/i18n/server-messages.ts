import { i18n } from './i18n';
import type { TranslationKey } from './keys';

/**
 * Messages of the management API that the app translates; any other server text is shown as sent.
 * (The server answers `{ message, http_status }` with English texts.)
 */
export const SERVER_MESSAGE_KEYS: Readonly<Record<string, TranslationKey>> = {
  'Wrong user or password': 'errors.wrongCredentials',
  'Unexpected error': 'errors.unexpected',
  'Your registration is expired!': 'account.registrationExpired',
  'Your token is expired!': 'account.tokenExpired',
  'User registration is disabled': 'account.registrationDisabled',
  'You must be authenticated': 'errors.authenticationRequired',
  'Wrong current password': 'profile.password.wrongCurrent',
};

/** Server texts that name an internal code (a permission): the user sees a translated sentence instead. */
const SERVER_MESSAGE_PATTERNS: readonly (readonly [RegExp, TranslationKey])[] = [
  [/^You do not have the permission /, 'errors.forbidden'],
];

export function serverMessageKey(text: string): TranslationKey | undefined {
  return SERVER_MESSAGE_KEYS[text] ?? SERVER_MESSAGE_PATTERNS.find(([pattern]) => pattern.test(text))?.[1];
}

/** A server text, translated when the app knows it. */
export function translateServerText(text: string): string {
  const key = serverMessageKey(text);
  return key ? i18n.t(key) : text;
}
