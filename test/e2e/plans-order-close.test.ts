import { describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { focused } from './support/app';
import { screenshot } from './support/browser';
import { consoleSuite } from './support/console-suite';

/**
 * The plans of an API in the console, in a real browser against `portico start`: published plans
 * reordered by drag and drop and by keyboard; a plan closed by typing its name.
 */
describe('plans reordered and closed in the console', () => {
  const suite = consoleSuite();
  const { api, createApi, publishedPlan, adminOn, toast, main, dialog } = suite;

  it('reorders the published plans by dragging them, and by keyboard', async () => {
    const { id: apiId } = await createApi('Catalog', '/catalog');
    for (const name of ['Bronze', 'Silver', 'Platinum']) await publishedPlan(apiId, name);
    const page = await adminOn(`/management/apis/${apiId}/plans`);
    const names = () => main(page).getByRole('listitem').getByRole('heading').allTextContents();
    await expect.poll(names).toEqual(['Bronze', 'Silver', 'Platinum']);
    await screenshot(page, 'plans-published');

    // Platinum, dragged by its handle above Bronze.
    const handle = (name: string) => main(page).getByRole('button', { name: `Move the plan ${name}` });
    await handle('Bronze').evaluate((element) => element.scrollIntoView({ block: 'center' }));
    const from = (await handle('Platinum').boundingBox())!;
    const to = (await handle('Bronze').boundingBox())!;
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + from.width / 2, from.y - 10, { steps: 5 });
    await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2 - 10, { steps: 15 });
    await page.mouse.up();
    await toast(page, 'Plans reordered successfully').waitFor();
    await expect.poll(names).toEqual(['Platinum', 'Bronze', 'Silver']);
    const order = async () =>
      (await api<{ name: string; order: number }[]>('GET', `apis/${apiId}/plans`))
        .sort((a, b) => a.order - b.order)
        .map((p) => p.name);
    expect(await order()).toEqual(['Platinum', 'Bronze', 'Silver']);

    // The handles are reached with the keyboard, with a visible focus.
    await main(page)
      .getByRole('button', { name: /^Closed/ })
      .focus();
    await page.keyboard.press('Tab');
    expect(await focused(page)).toMatchObject({ label: 'Move the plan Platinum', visible: true });

    // The keyboard: Space lifts the focused handle, the arrows move it, Space drops it.
    await handle('Silver').focus();
    for (const key of ['Space', 'ArrowUp', 'Space']) {
      await page.keyboard.press(key);
      await page.waitForTimeout(150);
    }
    await expect.poll(order).toEqual(['Platinum', 'Silver', 'Bronze']);
    await page.reload();
    await expect.poll(names).toEqual(['Platinum', 'Silver', 'Bronze']);
    await screenshot(page, 'plans-reordered');
  });

  it('closes a plan once its name is typed, and shows it struck through under Closed', async () => {
    const { id: apiId } = await createApi('Invoices', '/invoices');
    await publishedPlan(apiId, 'Legacy');
    const page = await adminOn(`/management/apis/${apiId}/plans`);
    await main(page).getByRole('button', { name: 'Close the plan Legacy' }).click();
    const confirm = dialog(page).getByRole('button', { name: 'Close the plan' });
    const typed: Locator = dialog(page).getByRole('textbox', { name: 'Type Legacy to confirm' });
    await dialog(page)
      .getByText(/Closing Legacy is final/)
      .waitFor();
    expect(await confirm.isDisabled()).toBe(true);
    await typed.fill('legacy');
    expect(await confirm.isDisabled()).toBe(true);
    await typed.fill('Legacy');
    expect(await confirm.isEnabled()).toBe(true);
    await screenshot(page, 'plan-close-typed');
    await confirm.click();
    await toast(page, 'The plan Legacy has been closed').waitFor();
    await main(page).getByText('Plans will appear here').waitFor();
    await main(page)
      .getByRole('button', { name: /^Closed/ })
      .click();
    const heading = main(page).getByRole('heading', { name: 'Legacy' });
    expect(await heading.evaluate((h) => getComputedStyle(h).textDecorationLine)).toBe('line-through');
    // A closed plan is not edited, published nor closed again.
    expect(await main(page).getByRole('link', { name: 'Edit the plan Legacy' }).count()).toBe(0);
    expect(await main(page).getByRole('button', { name: 'Close the plan Legacy' }).count()).toBe(0);
    const [plan] = await api<{ status: string }[]>('GET', `apis/${apiId}/plans`);
    expect(plan!.status).toBe('CLOSED');
    await screenshot(page, 'plans-closed');
  });
});
