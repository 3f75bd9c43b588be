import i18next from 'i18next';
import HttpBackend from 'i18next-http-backend';
import { initReactI18next } from 'react-i18next';
import { appUrl } from '../config/config';
import { StorageKeys, readStored, writeStored } from '../lib/storage';
import type { Language } from './languages';
import { FALLBACK_LANGUAGE, LANGUAGES, isLanguage, matchLanguage } from './languages';

export { LANGUAGES, FALLBACK_LANGUAGE, isLanguage, matchLanguage };
export type { Language };

/** The remembered choice, else the browser's preferences, else en. */
export function initialLanguage(): Language {
  const stored = readStored<unknown>(StorageKeys.language, undefined);
  if (isLanguage(stored)) return stored;
  return matchLanguage(globalThis.navigator?.languages ?? []);
}

/**
 * Loads `portal/i18n/{lang}.json` (and en, the fallback). A missing or broken file is rejected by the
 * loader and the texts come from en.
 */
export async function initI18n(language: Language = initialLanguage()): Promise<typeof i18next> {
  document.documentElement.lang = language;
  await i18next
    .use(HttpBackend)
    .use(initReactI18next)
    .init({
      lng: language,
      fallbackLng: FALLBACK_LANGUAGE,
      supportedLngs: [...LANGUAGES],
      load: 'currentOnly',
      ns: ['translation'],
      defaultNS: 'translation',
      backend: { loadPath: appUrl('portal/i18n/{{lng}}.json') },
      interpolation: { escapeValue: false },
      returnEmptyString: false,
      react: { useSuspense: false },
    });
  return i18next;
}

/** Switches the language of both faces and remembers the choice. */
export async function setLanguage(language: Language): Promise<void> {
  writeStored(StorageKeys.language, language);
  await i18next.changeLanguage(language);
  document.documentElement.lang = language;
}

export const i18n = i18next;
