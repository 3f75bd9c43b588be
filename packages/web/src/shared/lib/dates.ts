import dayjs from 'dayjs';
import relativeTime from 'dayjs/plugin/relativeTime';
import { i18n } from '../i18n/i18n';
import type { Language } from '../i18n/languages';
import { isLanguage } from '../i18n/languages';

dayjs.extend(relativeTime);

const LOCALES: Record<Exclude<Language, 'en'>, { name: string; load: () => Promise<unknown> }> = {
  fr: { name: 'fr', load: () => import('dayjs/locale/fr') },
  'pt-BR': { name: 'pt-br', load: () => import('dayjs/locale/pt-br') },
  zh: { name: 'zh-cn', load: () => import('dayjs/locale/zh-cn') },
  ru: { name: 'ru', load: () => import('dayjs/locale/ru') },
};

/** Loads dayjs' locale of a language (en is built in). */
export async function loadDateLocale(language: string): Promise<string> {
  if (!isLanguage(language) || language === 'en') return 'en';
  const locale = LOCALES[language];
  await locale.load();
  return locale.name;
}

let currentLocale = 'en';
const follow = (language: string) =>
  void loadDateLocale(language).then((name) => {
    currentLocale = name;
  });
follow(i18n.language);
i18n.on('languageChanged', follow);

/** dayjs' name of the current language's locale (loaded): for the date pickers. */
export const dateLocale = (): string => currentLocale;

const WEEK_MS = 7 * 24 * 3600 * 1000;

/**
 * A human date: relative within one week ('3 hours ago'), otherwise 'D MMM. YYYY' (the month's
 * abbreviation keeps its own dot where the language has one).
 */
export function humanDate(epochMs: number, now: number = Date.now(), locale: string = currentLocale): string {
  const date = dayjs(epochMs).locale(locale);
  if (Math.abs(now - epochMs) < WEEK_MS) return date.from(dayjs(now));
  if (locale === 'zh-cn') return date.format('YYYY年M月D日');
  const month = date.format('MMM');
  return `${date.format('D')} ${month.endsWith('.') ? month : `${month}.`} ${date.format('YYYY')}`;
}
