import { readFileSync } from 'node:fs';
import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGES } from './languages';

const file = (language: string) =>
  JSON.parse(
    readFileSync(new URL(`../../../public/portal/i18n/${language}.json`, import.meta.url), 'utf8'),
  ) as object;

describe('plural forms of rate limits and quotas', () => {
  const i18n = i18next.createInstance();

  beforeAll(async () => {
    await i18n.init({
      lng: 'en',
      fallbackLng: false,
      resources: Object.fromEntries(LANGUAGES.map((l) => [l, { translation: file(l) }])),
      interpolation: { escapeValue: false },
    });
  });

  const limit = (lng: string, key: string, count: number, time: number, unit: string) =>
    i18n.t(key, { lng, count, period: i18n.t(`common.period.${unit}`, { lng, count: time }) });

  it('says "3 calls per 1 minute" and "1 call per 2 hours" in English', () => {
    expect(limit('en', 'plans.preview.limit', 3, 1, 'MINUTES')).toBe('3 calls per 1 minute');
    expect(limit('en', 'plans.preview.limit', 1, 2, 'HOURS')).toBe('1 call per 2 hours');
    expect(limit('en', 'apis.wizard.confirmation.limit', 1, 1, 'SECONDS')).toBe('1 request per 1 second');
  });

  it('follows the rules of each language', () => {
    expect(limit('fr', 'plans.preview.limit', 1, 3, 'DAYS')).toBe('1 appel par 3 jours');
    expect(limit('pt-BR', 'plans.preview.limit', 2, 1, 'MONTHS')).toBe('2 chamadas a cada 1 mês');
    expect(limit('ru', 'plans.preview.limit', 5, 2, 'MINUTES')).toBe('5 вызовов за 2 минуты');
    expect(limit('ru', 'plans.preview.limit', 21, 1, 'WEEKS')).toBe('21 вызов за 1 неделю');
    expect(limit('zh', 'plans.preview.limit', 3, 1, 'MINUTES')).toBe('每 1 分钟 3 次调用');
  });
});
