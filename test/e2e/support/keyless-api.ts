import type { Browser, BrowserContext, Page } from 'playwright-core';
import { signInOnPage } from './app';
import { newContext } from './browser';
import type { Portico } from './portico';

type Call = <T>(method: string, path: string, body?: unknown) => Promise<T>;

/**
 * An API on `endpoint` with a published key-less plan, deployed and started: what the proxy, design
 * and health browser tests change on screen and then call through the gateway. Answers its id.
 */
export async function startedKeylessApi(
  call: Call,
  api: { name: string; description: string; contextPath: string; endpoint: string },
): Promise<string> {
  const { id } = await call<{ id: string }>('POST', 'apis', {
    name: api.name,
    version: '1.0',
    description: api.description,
    context_path: api.contextPath,
    endpoint: api.endpoint,
  });
  const plan = await call<{ id: string }>('POST', `apis/${id}/plans`, {
    name: 'Open',
    description: 'Keyless',
    security: 'KEY_LESS',
  });
  await call('POST', `apis/${id}/plans/${plan.id}/_publish`);
  await call('POST', `apis/${id}/deploy`);
  await call('POST', `apis/${id}?action=START`);
  return id;
}

/** A new browser context with the administrator signed in on the console's API list. */
export async function adminConsolePage(
  browser: Browser,
  portico: Portico,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await newContext(browser);
  const page = await context.newPage();
  await page.goto(`${portico.webUrl}/login?redirectUri=%2Fmanagement`);
  await signInOnPage(page, 'admin', 'admin');
  await page.waitForURL(`${portico.webUrl}/management/apis`);
  return { context, page };
}
