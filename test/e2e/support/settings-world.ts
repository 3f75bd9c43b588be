import type { Page } from 'playwright-core';
import { settle } from './app';
import type { Portico } from './portico';

/** Calls of the management API with a bearer token; throws on a refusal (to prepare and check data). */
export function managementCalls(portico: Portico, token: () => string) {
  return async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${portico.apiUrl}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${token()}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };
}

/** Switches the web app's language (stored preference) and reloads the page. */
export async function inLanguage(page: Page, language: string): Promise<void> {
  await page.evaluate((lang) => localStorage.setItem('portico.language', JSON.stringify(lang)), language);
  await page.reload();
  await page.waitForFunction((lang) => document.documentElement.lang === lang, language, { timeout: 30_000 });
  await settle(page);
}
