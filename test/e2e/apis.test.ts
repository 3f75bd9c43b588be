import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { signInOnPage } from './support/app';
import type { ApiJson, ApisConsole } from './support/apis-console';
import * as create from './support/apis-create-steps';
import * as manage from './support/apis-manage-steps';
import { launchChromium, newContext, policyViolations, screenshot } from './support/browser';
import type { MailSink } from './support/mail-sink';
import { startMailSink } from './support/mail-sink';
import type { Portico } from './support/portico';
import { adminToken, startPortico } from './support/portico';

/**
 * The API screens of the console in a real browser against `portico start`: list, creation wizard,
 * import, export, general settings and deployment, the 412 of a stale tab, history and rollback, the
 * Danger Zone, members, metadata, events and the quality score.
 */
describe('console: APIs', () => {
  let portico: Portico;
  let sink: MailSink;
  let browser: Browser;
  let token: string;
  let context: BrowserContext;
  let page: Page;

  const api = async <T>(path: string, init: RequestInit = {}): Promise<{ status: number; body: T }> => {
    const response = await fetch(`${portico.apiUrl}${path}`, {
      ...init,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', ...init.headers },
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
  };
  const apiByName = async (name: string) => {
    const { body } = await api<ApiJson[]>('apis');
    const found = body.find((a) => a.name === name);
    if (!found) throw new Error(`no API named ${name}`);
    return (await api<ApiJson>(`apis/${found.id}`)).body;
  };
  const exported = async (id: string) =>
    (
      await api<{ pages: { name: string; type: string; published: boolean; content: string }[] }>(
        `apis/${id}/export`,
      )
    ).body;
  const toast = (text: string | RegExp) => page.getByRole('alert').filter({ hasText: text }).first();
  const go = async (path: string) => {
    await page.goto(`${portico.webUrl}${path}`);
  };
  /** What the steps share; `orders`, the API created and started by the wizard, is set by the first. */
  const c = { api, apiByName, exported, toast, go } as ApisConsole;

  beforeAll(async () => {
    sink = await startMailSink();
    [portico, browser] = await Promise.all([startPortico({ smtpUrl: sink.url }), launchChromium()]);
    token = await adminToken(portico);
    context = await newContext(browser);
    page = await context.newPage();
    await page.goto(`${portico.webUrl}/login?redirectUri=%2Fmanagement`);
    await signInOnPage(page, 'admin', 'admin');
    await page.waitForURL(`${portico.webUrl}/management/apis`);
    Object.assign(c, { portico, sink, browser, token, context, page });
  });

  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await browser?.close();
    await portico?.stop();
    await sink?.close();
  });

  // The web server's Content-Security-Policy blocks nothing the app does.
  afterEach(() => {
    expect(policyViolations.splice(0)).toEqual([]);
  });

  afterEach(async (test) => {
    if (test.task.result?.state !== 'fail') return;
    // Whether the management API still answers, and what it printed last, for the failure's reader.
    const health = await fetch(`${portico.apiUrl}health`, { signal: AbortSignal.timeout(2000) })
      .then((r) => String(r.status))
      .catch((e: unknown) => String(e));
    console.error(`management health: ${health}\n${portico.output().slice(-2000)}`);
    await Promise.all(
      context
        .pages()
        .map((p, i) =>
          screenshot(p, `failed-apis-${test.task.name.slice(0, 40)}-${i}`).catch(() => undefined),
        ),
    );
  });

  it('shows the empty list, then creates an API through the wizard with a plan and a Markdown page, and starts it', () =>
    create.wizardCreatesAndStarts(c));

  it('creates without deploying: the plan stays in staging and the pages unpublished; skipped steps show', () =>
    create.createsWithoutDeploying(c));

  it('imports an OpenAPI 3 YAML file with all the options, and says why other files are refused', () =>
    create.importsOpenApiYaml(c));

  it('exports an API to a file named after it, and imports the file back over it', () =>
    create.exportsAndImportsBack(c));

  it('edits the general settings, shows the out-of-sync banner, deploys, and the banner clears', () =>
    create.editsAndDeploys(c));

  it('offers Refresh when a second tab saved the API first (412)', () => manage.offersRefreshOn412(c));

  it('compares two entries of the history side by side, the current API as newest, and rolls back', () =>
    manage.comparesHistoryAndRollsBack(c));

  it('shows the events as a timeline with their icons', () => manage.showsEventsTimeline(c));

  it('refuses to delete a started API, then the server refuses while a plan is published', () =>
    manage.refusesDeletion(c));

  it('manages members, metadata with its format checks, and shows the quality score', () =>
    manage.managesMembersMetadataQuality(c));

  it('lists, searches and sorts the APIs with their columns, in English and in French', () =>
    manage.listsSearchesSorts(c));
});
