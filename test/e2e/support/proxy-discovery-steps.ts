import { expect } from 'vitest';
import type { Page } from 'playwright-core';

/** What the steps of the `/proxy/discovery` screen need from the proxy settings suite. */
export interface DiscoverySuite {
  page: Page;
  /** The console address of the API (`…/management/apis/{id}`). */
  apiBase: string;
  apiId: string;
  /** A call of the management API as the administrator. */
  call: <T>(method: string, path: string, body?: unknown) => Promise<T>;
  /** Checks that axe finds no serious violation, then takes the screenshot `name`. */
  looked: (name: string) => Promise<void>;
}

interface Group {
  name: string;
  services?: { discovery?: { enabled: boolean; provider?: string; configuration?: unknown } };
}

/**
 * `/proxy/discovery` (console-apis.md 2.5): opened from the endpoints page, one section per group;
 * a group's discovery switched on needs a type (Save stays disabled), Reset takes the change back, the
 * Consul provider's form is filled and saved through `PUT apis/{id}`; then the screen in French.
 */
export async function discoveryScreenSteps({ page, apiBase, apiId, call, looked }: DiscoverySuite) {
  const main = () => page.getByRole('main');
  // A second group, whose discovery stays off.
  const { proxy } = await call<{ proxy: { groups: Group[] } }>('GET', `apis/${apiId}`);
  await call('PUT', `apis/${apiId}`, {
    proxy: {
      ...proxy,
      groups: [
        ...proxy.groups,
        { name: 'replicas', endpoints: [{ name: 'replica-1', target: 'http://127.0.0.1:9' }] },
      ],
    },
  });

  await page.goto(`${apiBase}/proxy/endpoints`);
  await main().getByRole('link', { name: 'Service discovery' }).click();
  await page.waitForURL(`${apiBase}/proxy/discovery`);
  await main().getByRole('heading', { name: 'Service discovery' }).waitFor();
  const save = main().getByRole('button', { name: 'Save' });
  const reset = main().getByRole('button', { name: 'Reset' });
  expect(await save.isDisabled()).toBe(true);
  expect(await reset.isDisabled()).toBe(true);
  const first = main().getByRole('group', { name: 'default-group', exact: true });
  const second = main().getByRole('group', { name: 'replicas', exact: true });
  const discover = first.getByRole('switch', { name: 'Discover the endpoints of this group' });
  await expect.poll(() => discover.isEnabled()).toBe(true);
  expect(await second.getByRole('switch', { name: 'Discover the endpoints of this group' }).isChecked()).toBe(
    false,
  );

  // Switched on without a type: Save stays disabled; Reset takes it back.
  await discover.click({ force: true });
  await expect.poll(() => discover.isChecked()).toBe(true);
  await first.getByText('This field is required.').waitFor();
  expect(await save.isDisabled()).toBe(true);
  await expect.poll(() => reset.isEnabled()).toBe(true);
  await reset.click();
  await expect.poll(() => discover.isChecked()).toBe(false);
  await expect.poll(() => reset.isDisabled()).toBe(true);

  await discover.click({ force: true });
  await first.getByRole('combobox', { name: 'Type' }).click();
  await page.getByRole('option', { name: 'Consul.io Service Discovery' }).click();
  const service = first.getByRole('textbox', { name: 'Service' });
  await service.waitFor();
  expect(await first.getByRole('textbox', { name: 'Consul.io URL' }).inputValue()).toBe(
    'http://localhost:8500',
  );
  expect(await save.isDisabled()).toBe(true);
  await service.fill('orders');
  await expect.poll(() => save.isEnabled()).toBe(true);
  await looked('api-proxy-discovery');
  await save.click();
  await page.getByText('Proxy saved').waitFor();
  await expect.poll(() => save.isDisabled()).toBe(true);

  const stored = await call<{ proxy: { groups: Group[] } }>('GET', `apis/${apiId}`);
  expect(stored.proxy.groups.map((g) => g.name)).toEqual(['default-group', 'replicas']);
  expect(stored.proxy.groups[0]!.services?.discovery).toMatchObject({
    enabled: true,
    provider: 'consul-service-discovery',
    configuration: { url: 'http://localhost:8500', service: 'orders' },
  });
  expect(stored.proxy.groups[1]!.services?.discovery).toBeUndefined();

  // Opened again, the saved discovery is shown; then in French.
  await page.evaluate(() => localStorage.setItem('portico.language', JSON.stringify('fr')));
  await page.goto(`${apiBase}/proxy/discovery`);
  await main().getByRole('heading', { name: 'Découverte de services' }).waitFor();
  const on = main().getByRole('switch', { name: 'Découvrir les endpoints de ce groupe' });
  await expect.poll(() => on.first().isChecked()).toBe(true);
  expect(await on.nth(1).isChecked()).toBe(false);
  await looked('api-proxy-discovery-fr');
  await page.evaluate(() => localStorage.setItem('portico.language', JSON.stringify('en')));
}
