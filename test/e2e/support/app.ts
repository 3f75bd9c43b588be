import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { chunkOf, portalFirstLoad, readManifest } from '../../../packages/web/scripts/first-load.mjs';
import { REPO_ROOT } from './portico';

/** Signs in through the login page (the page must show it). */
export async function signInOnPage(page: Page, username: string, password: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Username or email' }).fill(username);
  await page.getByRole('textbox', { name: 'Password' }).fill(password);
  await page.getByRole('main').getByRole('button', { name: 'Sign in' }).click();
}

/**
 * Waits for the toast that says `text`, then closes it, so that the next wait for the same words sees
 * the next toast (a toast under the pointer stays past its 3 s, and two alike would both match).
 */
export async function closeToast(page: Page, text: string | RegExp): Promise<void> {
  const toasts = page.locator('.mantine-Notification-root').filter({ hasText: text });
  await toasts.first().waitFor();
  while ((await toasts.count()) > 0) {
    await toasts
      .first()
      // By its class: its label is in the page's language.
      .locator('.mantine-Notification-closeButton')
      .click({ timeout: 2000 })
      .catch(() => undefined); // closed by its timer meanwhile
  }
}

/**
 * Sets a switch (a Mantine switch hides its input, hence the forced click). It waits until the switch is
 * enabled (many are disabled until the user's permissions have loaded) and clicks again while the page
 * was still settling (a form that mounts again from fresh data resets it).
 */
export async function setSwitch(toggle: Locator, checked: boolean): Promise<void> {
  await whenEnabled(toggle);
  for (let i = 0; i < 20 && (await toggle.isChecked()) !== checked; i++) {
    await toggle.click({ force: true });
    await toggle.page().waitForTimeout(250);
  }
  if ((await toggle.isChecked()) !== checked)
    throw new Error(`the switch did not turn ${checked ? 'on' : 'off'}`);
}

/**
 * Turns a switch over once, for a switch that saves at once (a second click would undo the first): it
 * waits until the switch is enabled, clicks, and waits for its new state.
 */
export async function flipSwitch(toggle: Locator): Promise<void> {
  await whenEnabled(toggle);
  const was = await toggle.isChecked();
  await toggle.click({ force: true });
  for (let i = 0; i < 50 && (await toggle.isChecked()) === was; i++) await toggle.page().waitForTimeout(100);
  if ((await toggle.isChecked()) === was) throw new Error('the switch did not turn over');
}

/** Waits up to 5 s for a control to be enabled (a forced click on a disabled one does nothing). */
async function whenEnabled(control: Locator): Promise<void> {
  for (let i = 0; i < 50 && !(await control.isEnabled()); i++) await control.page().waitForTimeout(100);
}

/** The user menu button of the top bar (signed in). */
export const userMenu = (page: Page) => page.getByRole('button', { name: /^User menu of / });

const WEB_DIST = process.env.PORTICO_WEB_DIST ?? path.join(REPO_ROOT, 'packages/web/dist');

/** The built file of a source module of the web app (Vite's manifest). */
export function builtChunk(source: string): string {
  const chunk = chunkOf(readManifest(WEB_DIST), source);
  if (!chunk) throw new Error(`${source} is not in the build manifest`);
  return chunk.file;
}

/** The script paths the build's size report counts as the signed-out portal home's first load. */
export function reportedFirstLoad(): Set<string> {
  return new Set([...portalFirstLoad(readManifest(WEB_DIST))].map((file) => `/${file}`));
}

/** Lets toasts and menus finish their animation before a screenshot. */
export const settle = (page: Page) => page.waitForTimeout(400);

export interface Focus {
  tag: string;
  text: string;
  label: string | null;
  /** The focused control shows it: an outline or a focus ring (box shadow). */
  visible: boolean;
}

/** What has the keyboard focus, and whether one can see it. */
export function focused(page: Page): Promise<Focus> {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return { tag: 'BODY', text: '', label: null, visible: false };
    const style = getComputedStyle(element);
    const visible =
      (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none';
    return {
      tag: element.tagName,
      text: (element.textContent ?? '').trim(),
      label: element.getAttribute('aria-label'),
      visible,
    };
  });
}

const AXE_SOURCE = path.join(REPO_ROOT, 'node_modules/axe-core/axe.min.js');

/**
 * The serious and critical accessibility violations axe-core finds on the page (rule id, then the
 * elements' selectors). axe is evaluated through the debugging protocol, which the page's
 * Content-Security-Policy does not apply to.
 */
export async function seriousA11yViolations(page: Page): Promise<string[]> {
  // Injected once per document (a page that navigated gets it again).
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(await readFile(AXE_SOURCE, 'utf8'));
  const violations = await page.evaluate(async () => {
    type Axe = { run(context: Document, options: object): Promise<{ violations: AxeViolation[] }> };
    const axe = (window as unknown as { axe: Axe }).axe;
    // Only violations are read: axe then skips gathering the passed and incomplete checks' details.
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
  return violations;
}

interface AxeViolation {
  id: string;
  impact: string | null;
  nodes: { target: string[] }[];
}
