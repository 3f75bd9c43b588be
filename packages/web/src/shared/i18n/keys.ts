import type en from '../../../public/portal/i18n/en.json';

type Leaves<T, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${K}` : Leaves<T[K], `${P}${K}.`>;
}[keyof T & string];

/** Every key of the translation files (en.json is the reference; the unit tests hold the others to it). */
export type TranslationKey = Leaves<typeof en>;

/** Marks a string as a translation key where it is stored in data (menus, tables) and translated later. */
export const translationKey = <K extends TranslationKey>(key: K): K => key;
