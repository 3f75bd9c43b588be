import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium, newContext, policyViolations, screenshot } from './support/browser';
import type { Portico } from './support/portico';
import { freePort, startPortico } from './support/portico';

/**
 * Start-up when the management API goes away: the web app is served by one process (`portico start`,
 * pointed at the other one's API) and the management API runs in another, which the test stops.
 */
describe('start-up', () => {
  let api: Portico;
  let web: Portico;
  let browser: Browser;

  beforeAll(async () => {
    const webPort = await freePort();
    const webUrl = `http://localhost:${webPort}`;
    api = await startPortico({ command: 'management', webUrl });
    [web, browser] = await Promise.all([
      startPortico({ webPort, managementUrl: api.apiUrl }),
      launchChromium(),
    ]);
  });

  // The web server's Content-Security-Policy blocks nothing the app does.
  afterEach(() => {
    expect(policyViolations.splice(0)).toEqual([]);
  });

  afterAll(async () => {
    await browser?.close();
    await web?.stop();
    await api?.stop();
  });

  it('shows "Management API unreachable or error occurs, please check logs." once the API is stopped', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto(web.webUrl);
    await page.getByRole('heading', { name: 'Welcome to the Portico developer portal' }).waitFor();

    await api.kill();
    await page.reload();
    await page.getByText('Management API unreachable or error occurs, please check logs.').waitFor();
    await screenshot(page, 'management-api-unreachable');
    await context.close();
  });
});
