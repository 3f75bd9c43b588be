import { describe, expect, it } from 'vitest';
import { FALLBACK_LANGUAGE, LANGUAGES, matchLanguage } from './languages';

describe('languages', () => {
  it('are en, fr, pt-BR, zh and ru, with en as fallback', () => {
    expect(LANGUAGES).toEqual(['en', 'fr', 'pt-BR', 'zh', 'ru']);
    expect(FALLBACK_LANGUAGE).toBe('en');
  });

  it('follow the browser preferences: exact match first, then the same base language', () => {
    expect(matchLanguage(['pt-BR'])).toBe('pt-BR');
    expect(matchLanguage(['pt-PT', 'en'])).toBe('pt-BR');
    expect(matchLanguage(['zh-CN'])).toBe('zh');
    expect(matchLanguage(['de-DE', 'fr-CA'])).toBe('fr');
    expect(matchLanguage(['RU'])).toBe('ru');
  });

  it('fall back to en', () => {
    expect(matchLanguage(['de', 'ja'])).toBe('en');
    expect(matchLanguage([])).toBe('en');
  });
});
