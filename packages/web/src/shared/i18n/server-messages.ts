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
};

export function serverMessageKey(text: string): TranslationKey | undefined {
  return SERVER_MESSAGE_KEYS[text];
}

/** A server text, translated when the app knows it. */
export function translateServerText(text: string): string {
  const key = serverMessageKey(text);
  return key ? i18n.t(key) : text;
}
