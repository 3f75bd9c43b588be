import { describe, expect, it } from 'vitest';
import { humanDate, loadDateLocale } from './dates';

const NOW = Date.UTC(2030, 5, 15, 12);
const HOUR = 3600 * 1000;

describe('human dates', () => {
  it('are relative within one week', () => {
    expect(humanDate(NOW - 3 * HOUR, NOW, 'en')).toBe('3 hours ago');
    expect(humanDate(NOW - 6 * 24 * HOUR, NOW, 'en')).toBe('6 days ago');
  });

  it("are 'D MMM. YYYY' beyond", () => {
    expect(humanDate(Date.UTC(2030, 0, 5, 12), NOW, 'en')).toBe('5 Jan. 2030');
  });

  it('follow the language, without doubling the dot of abbreviated months', async () => {
    expect(await loadDateLocale('fr')).toBe('fr');
    expect(humanDate(Date.UTC(2030, 0, 5, 12), NOW, 'fr')).toBe('5 janv. 2030');
    expect(humanDate(NOW - 3 * HOUR, NOW, 'fr')).toBe('il y a 3 heures');
    expect(await loadDateLocale('zh')).toBe('zh-cn');
    expect(humanDate(Date.UTC(2030, 0, 5, 12), NOW, 'zh-cn')).toBe('2030年1月5日');
  });
});
