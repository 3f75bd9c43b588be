import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousA11yViolations, signInOnPage } from './support/app';
import { newContext, screenshot } from './support/browser';
import { consoleSuite } from './support/console-suite';
import { createActiveUser } from './support/portico';

/**
 * Ratings in the developer portal (portal-and-platform.md: Ratings page, Rating; issue 14 item 4) in a
 * real browser against `portico start`: a developer rates a PUBLIC API with a title and a comment (the
 * comment is mandatory, so the star alone does not save), the summary and the API header follow, the
 * API's owner answers; with rating disabled the page sends home and the header shows no stars.
 */
describe('portal ratings', () => {
  const { world, api, createApi, adminOn, main, toast } = consoleSuite();
  let weather = '';
  let developer: Page;

  beforeAll(async () => {
    ({ id: weather } = await createApi('Weather', '/weather'));
    await api('PUT', `apis/${weather}`, {
      ...(await api<Record<string, unknown>>('GET', `apis/${weather}`)),
      visibility: 'PUBLIC',
    });
    await api('POST', 'portal', { portal: { rating: { enabled: true, comment: { mandatory: true } } } });
    await createActiveUser(world.portico, world.token, world.sink, {
      ...{ firstname: 'Dana', lastname: 'Dev', email: 'dana@example.test' },
      password: 'Dana-pass-2026',
    });
    const context = await newContext(world.browser);
    developer = await context.newPage();
    const path = `/apis/${weather}/ratings`;
    await developer.goto(`${world.portico.webUrl}/login?redirectUri=${encodeURIComponent(path)}`);
    await signInOnPage(developer, 'dana@example.test', 'Dana-pass-2026');
    await developer.waitForURL(`${world.portico.webUrl}${path}`);
  });

  afterAll(async () => {
    await developer?.context().close();
  });

  it('lets a developer rate the API with a comment; the summary and the header follow', async () => {
    const form = main(developer).getByRole('region', { name: 'Rate this API' });
    await main(developer).getByText('No rating yet.').waitFor();
    // Keyboard: the stars are a radio group; arrows move, Space picks.
    await form.getByRole('radio', { name: '1 star', exact: true }).focus();
    await developer.keyboard.press('ArrowRight');
    await developer.keyboard.press('ArrowRight');
    await developer.keyboard.press('ArrowRight');
    await developer.keyboard.press('Space');
    expect(await form.getByRole('radio', { name: '4 stars' }).isChecked()).toBe(true);
    // The comment is mandatory: nothing is saved until title and comment are given.
    const rate = form.getByRole('button', { name: 'Rate' });
    expect(await rate.isDisabled()).toBe(true);
    await form.getByLabel('Title').fill('Reliable forecasts');
    await form.getByLabel('Comment').fill('Accurate data, quick answers.');
    await rate.click();
    await toast(developer, 'Rating created').waitFor();

    await main(developer).getByRole('region', { name: 'Your rating' }).waitFor();
    await expect.poll(() => main(developer).getByTestId('ratings-average').textContent()).toBe('4.0');
    expect(await main(developer).getByTestId('ratings-count-4').textContent()).toBe('1');
    const item = main(developer).getByRole('article', { name: 'Rating by Dana Dev' });
    await item.getByText('Accurate data, quick answers.').waitFor();
    await main(developer).getByRole('link', { name: '1 rating' }).waitFor();
    await main(developer).getByRole('img', { name: 'Rated 4 out of 5' }).first().waitFor();
    await screenshot(developer, 'portal-ratings-rated');
    expect(await seriousA11yViolations(developer)).toEqual([]);
  });

  it("lets the API's owner answer the rating, which the developer then reads", async () => {
    const owner = await adminOn(`/apis/${weather}/ratings`);
    const item = main(owner).getByRole('article', { name: 'Rating by Dana Dev' });
    await item.getByLabel('Answer this rating').fill('Thanks, Dana! Hourly data is coming.');
    await item.getByRole('button', { name: 'Answer' }).click();
    await toast(owner, 'Answer created').waitFor();
    await item.getByText('Thanks, Dana! Hourly data is coming.').waitFor();

    await developer.reload();
    const seen = main(developer).getByRole('article', { name: 'Rating by Dana Dev' });
    await seen.getByText('Thanks, Dana! Hourly data is coming.').waitFor();
    await seen.getByText(/answered by/).waitFor();
    await screenshot(developer, 'portal-ratings-answered');
    expect(await seriousA11yViolations(developer)).toEqual([]);
  });

  it('sends the ratings page home and hides the stars while rating is disabled', async () => {
    await api('POST', 'portal', { portal: { rating: { enabled: false } } });
    await developer.goto(`${world.portico.webUrl}/apis/${weather}/ratings`);
    await developer.waitForURL(`${world.portico.webUrl}/`);
    await developer.goto(`${world.portico.webUrl}/apis/${weather}/detail`);
    await main(developer).getByRole('heading', { name: 'Weather', level: 1 }).waitFor();
    expect(
      await main(developer)
        .getByRole('link', { name: /rating/ })
        .count(),
    ).toBe(0);
    expect(
      await main(developer)
        .getByRole('img', { name: /^Rated/ })
        .count(),
    ).toBe(0);
  });
});
