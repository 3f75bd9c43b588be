/** The languages of both faces; en is the fallback. */
export const LANGUAGES = ['en', 'fr', 'pt-BR', 'zh', 'ru'] as const;
export type Language = (typeof LANGUAGES)[number];
export const FALLBACK_LANGUAGE: Language = 'en';

export const isLanguage = (value: unknown): value is Language =>
  typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);

/**
 * The first supported language of a preference list (`navigator.languages`): an exact match first
 * (case-insensitive), else the same base language (`pt` and `pt-PT` give pt-BR, `zh-CN` gives zh).
 */
export function matchLanguage(candidates: readonly string[]): Language {
  for (const candidate of candidates) {
    const exact = LANGUAGES.find((l) => l.toLowerCase() === candidate.toLowerCase());
    if (exact) return exact;
    const base = candidate.split('-')[0]!.toLowerCase();
    const sameBase = LANGUAGES.find((l) => l.split('-')[0]!.toLowerCase() === base);
    if (sameBase) return sameBase;
  }
  return FALLBACK_LANGUAGE;
}
