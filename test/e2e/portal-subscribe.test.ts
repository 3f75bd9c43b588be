import { exec } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { seriousA11yViolations, settle, signInOnPage } from './support/app';
import { newContext, screenshot } from './support/browser';
import { consoleSuite } from './support/console-suite';
import { createActiveUser } from './support/portico';

const run = promisify(exec);

/**
 * The developer portal's subscription wizard (portal-and-platform.md 2, 4, 5; issue 14 item 3) in a real
 * browser against `portico start`: a developer without an application creates one from the wizard,
 * subscribes it to an API key plan with automatic validation, and the curl sample the page shows, run
 * as it is, reaches the test's backend through the gateway with the key; the same application cannot
 * subscribe to that plan again; a plan with manual validation and a required message ends on the
 * pending message.
 */
describe('portal subscription wizard', () => {
  // The backend behind the gateway: it answers with what it received.
  const received: { url: string }[] = [];
  const backend = createServer((req, res) => {
    received.push({ url: req.url ?? '' });
    res
      .writeHead(200, { 'Content-Type': 'application/json' })
      .end(JSON.stringify({ forecast: 'Sunny from the backend', path: req.url }));
  });
  let backendUrl = '';
  const allowPrivate = process.env.PORTICO_OUTBOUND_ALLOW_PRIVATE;
  beforeAll(async () => {
    process.env.PORTICO_OUTBOUND_ALLOW_PRIVATE = 'true';
    await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', resolve));
    backendUrl = `http://127.0.0.1:${(backend.address() as AddressInfo).port}/backend`;
  });
  afterAll(async () => {
    if (allowPrivate === undefined) delete process.env.PORTICO_OUTBOUND_ALLOW_PRIVATE;
    else process.env.PORTICO_OUTBOUND_ALLOW_PRIVATE = allowPrivate;
    await new Promise((resolve) => backend.close(resolve));
  });
  const { world, api, toast, main } = consoleSuite();
  const developer = { email: 'dana@weather.example', password: 'Dana-pass-1234' };
  let weather = '';
  let tab: Page;

  beforeAll(async () => {
    ({ id: weather } = await api<{ id: string }>('POST', 'apis', {
      name: 'Weather',
      version: '2.0',
      description: 'Forecasts for any city',
      context_path: '/weather',
      endpoint: backendUrl,
    }));
    await api('PUT', `apis/${weather}`, {
      ...(await api<Record<string, unknown>>('GET', `apis/${weather}`)),
      visibility: 'PUBLIC',
    });
    const plan = async (body: Record<string, unknown>) => {
      const { id } = await api<{ id: string }>('POST', `apis/${weather}/plans`, {
        security: 'API_KEY',
        ...body,
      });
      await api('POST', `apis/${weather}/plans/${id}/_publish`);
    };
    await plan({ name: 'Instant keys', description: 'A key at once', validation: 'AUTO' });
    await plan({
      name: 'Reviewed',
      description: 'For heavy users',
      validation: 'MANUAL',
      comment_required: true,
      comment_message: 'Tell us your use case',
    });
    await plan({ name: 'Open', description: 'Anybody', security: 'KEY_LESS' });
    await plan({
      name: 'Tokens',
      description: 'JSON web tokens',
      security: 'JWT',
      validation: 'AUTO',
      securityDefinition: JSON.stringify({
        signature: 'HMAC_HS256',
        resolverParameter: 'a-very-secret-hmac-key-of-32-chars',
      }),
    });
    await api('POST', `apis/${weather}/deploy`);
    await api('POST', `apis/${weather}?action=START`);
    // The portal shows calls through this gateway.
    await api('POST', 'portal', { portal: { entrypoint: world.portico.gatewayUrl } });
    await createActiveUser(world.portico, world.token, world.sink, {
      firstname: 'Dana',
      lastname: 'Developer',
      ...developer,
    });
    const context = await newContext(world.browser);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: world.portico.webUrl });
    tab = await context.newPage();
  });

  const applicationField = () => main(tab).getByRole('combobox', { name: 'Application' });
  afterEach(async (test) => {
    if (test.task.result?.state === 'fail')
      await screenshot(tab, `failed-subscribe-${test.task.name.slice(0, 30)}`);
  });
  afterAll(() => tab?.context().close());

  const subscribeButton = () => main(tab).getByRole('button', { name: 'Subscribe', exact: true });

  it('creates an application, subscribes it to an API key plan and the curl sample it shows gets the backend’s answer through the gateway', async () => {
    // Signed out: no subscribe entry, no subscribe link on the plans.
    await tab.goto(`${world.portico.webUrl}/apis/${weather}/detail`);
    await main(tab).getByRole('heading', { name: 'Instant keys' }).waitFor();
    expect(
      await main(tab)
        .getByRole('link', { name: /^Subscribe/ })
        .count(),
    ).toBe(0);

    await tab.goto(
      `${world.portico.webUrl}/login?redirectUri=${encodeURIComponent(`/apis/${weather}/detail`)}`,
    );
    await signInOnPage(tab, developer.email, developer.password);
    await tab.waitForURL(`**/apis/${weather}/detail`);
    await main(tab).getByRole('link', { name: 'Subscribe to Instant keys' }).waitFor();
    // A key-less plan needs no subscription: its card has no link.
    expect(await main(tab).getByRole('link', { name: 'Subscribe to Open' }).count()).toBe(0);
    await main(tab).getByRole('link', { name: 'Subscribe to Instant keys' }).click();
    await tab.waitForURL(/\/subscribe\?planId=/);

    // No application yet: the wizard offers to create one.
    await main(tab).getByText('You have no application yet').waitFor();
    expect(await subscribeButton().isDisabled()).toBe(true);
    await main(tab).getByRole('button', { name: 'Create the application' }).click();
    await main(tab).getByText('A name is required.').waitFor();
    await main(tab).getByRole('textbox', { name: 'Name' }).fill('Forecast widget');
    await main(tab).getByRole('textbox', { name: 'Description' }).fill('Shows the weather on our site');
    await main(tab).getByRole('button', { name: 'Create the application' }).click();
    await expect.poll(() => applicationField().inputValue()).toBe('Forecast widget');
    await expect.poll(() => subscribeButton().isDisabled()).toBe(false);
    await subscribeButton().click();
    await toast(tab, 'Subscribed to Instant keys').waitFor();

    const sample = main(tab).getByRole('region', { name: 'Call the API' }).locator('pre');
    await sample.waitFor();
    const command = (await sample.textContent())!.trim();
    const key = (await main(tab)
      .getByRole('region', { name: 'Your API key' })
      .locator('code')
      .textContent())!;
    expect(command).toBe(`curl -X GET '${world.portico.gatewayUrl}/weather' -H 'X-Api-Key: ${key}'`);
    await settle(tab);
    await screenshot(tab, 'portal-subscribe-key');
    expect(await seriousA11yViolations(tab)).toEqual([]);

    // The command as shown, run by a shell: once the gateway knows the key, the backend answers.
    await expect
      .poll(async () => (await run(command, { timeout: 10_000 })).stdout, { timeout: 20_000, interval: 250 })
      .toContain('Sunny from the backend');
    expect(received.at(-1)?.url).toBe('/backend');
    // The key is what lets the call through (without one the key-less plan would): another is refused.
    const wrongKey = await fetch(`${world.portico.gatewayUrl}/weather`, {
      headers: { 'X-Api-Key': `${key}-not` },
    });
    expect(wrongKey.status).toBe(401);
  }, 60_000);

  it('refuses the plan an application already has, clears the application when another plan is picked, and leaves a manual plan pending', async () => {
    await tab.goto(`${world.portico.webUrl}/apis/${weather}/subscribe`);
    const plans = main(tab).getByRole('radiogroup', { name: 'Plan' });
    await plans.getByRole('radio').first().waitFor();
    expect(await plans.getByRole('radio', { name: /^Open/ }).isDisabled()).toBe(true);
    await plans.getByRole('radio', { name: /^Instant keys/ }).click();

    await applicationField().fill('Fore');
    await tab.getByRole('option', { name: 'Forecast widget' }).click();
    await main(tab)
      .getByText('This application already has a pending or accepted subscription to this plan.')
      .waitFor();
    expect(await subscribeButton().isDisabled()).toBe(true);

    // Another plan: the application is cleared.
    await main(tab).getByRole('button', { name: 'Back' }).click();
    await plans.getByRole('radio', { name: /^Reviewed/ }).click();
    await expect.poll(() => applicationField().inputValue()).toBe('');
    await applicationField().fill('Forecast');
    await tab.getByRole('option', { name: 'Forecast widget' }).click();
    const message = main(tab).getByRole('textbox', { name: 'Message to the API publisher' });
    await main(tab).getByText('Tell us your use case').waitFor();
    // The message is required by this plan, and holds 150 characters at most.
    expect(await subscribeButton().isDisabled()).toBe(true);
    await message.fill('x'.repeat(151));
    await main(tab).getByText('The message has to be less than 150 characters long.').waitFor();
    expect(await subscribeButton().isDisabled()).toBe(true);
    await message.fill('Hourly forecasts on our home page');
    await expect.poll(() => subscribeButton().isDisabled()).toBe(false);
    await subscribeButton().click();

    await main(tab).getByRole('status').filter({ hasText: 'Subscription pending' }).waitFor();
    await main(tab)
      .getByText(/waits for the API publisher's validation/)
      .waitFor();
    await settle(tab);
    await screenshot(tab, 'portal-subscribe-pending');
    expect(await seriousA11yViolations(tab)).toEqual([]);
    const subscriptions = await api<{ data: { status: string; request: string | null }[] }>(
      'GET',
      `apis/${weather}/subscriptions?status=PENDING`,
    );
    expect(subscriptions.data.map((s) => s.status)).toEqual(['PENDING']);
  }, 60_000);

  it('asks a client id for a JWT plan and shows the bearer-token sample once subscribed', async () => {
    await tab.goto(`${world.portico.webUrl}/apis/${weather}/detail`);
    await main(tab).getByRole('link', { name: 'Subscribe to Tokens' }).click();
    await tab.waitForURL(/\/subscribe\?planId=/);
    // The application made earlier has no client id.
    await applicationField().fill('Forecast');
    await tab.getByRole('option', { name: 'Forecast widget' }).click();
    await main(tab).getByText('client id required', { exact: true }).waitFor();
    expect(await subscribeButton().isDisabled()).toBe(true);

    await main(tab).getByRole('button', { name: 'New application' }).click();
    await main(tab).getByRole('textbox', { name: 'Name' }).fill('Forecast backend');
    await main(tab).getByRole('textbox', { name: 'Description' }).fill('Our servers');
    await main(tab).getByRole('button', { name: 'Create the application' }).click();
    await main(tab).getByText('client id required', { exact: true }).waitFor();
    await main(tab).getByRole('textbox', { name: 'Client id' }).fill('forecast-backend');
    await main(tab).getByRole('button', { name: 'Create the application' }).click();
    await expect.poll(() => applicationField().inputValue()).toBe('Forecast backend');
    await expect.poll(() => subscribeButton().isDisabled()).toBe(false);
    await subscribeButton().click();

    const sample = main(tab).getByRole('region', { name: 'Call the API' }).locator('pre');
    await sample.waitFor();
    expect((await sample.textContent())!.trim()).toBe(
      `curl -X GET '${world.portico.gatewayUrl}/weather' -H 'Authorization: Bearer YOUR_ACCESS_TOKEN'`,
    );
    expect(await main(tab).getByRole('region', { name: 'Your API key' }).count()).toBe(0);
    await settle(tab);
    await screenshot(tab, 'portal-subscribe-token');
  }, 60_000);
});
