import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium, newContext, policyViolations, recordFailedPage } from './browser';
import type { MailSink } from './mail-sink';
import { startMailSink } from './mail-sink';
import type { Portico } from './portico';
import { startPortico } from './portico';

/** What a web app suite runs against: `portico start` with a mail sink, and a browser. */
export interface WebWorld {
  portico: Portico;
  sink: MailSink;
  browser: Browser;
}

/**
 * The shared setup of the web app suites; call it inside `describe`. Starts Portico and a browser before
 * the suite and stops them after; after each test checks that the Content-Security-Policy blocked
 * nothing, and leaves a picture of each page of a failed test.
 */
export function webSuite() {
  const world = {} as WebWorld;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    world.sink = await startMailSink();
    [world.portico, world.browser] = await Promise.all([
      startPortico({ smtpUrl: world.sink.url }),
      launchChromium(),
    ]);
  });

  afterAll(async () => {
    await Promise.all(contexts.map((c) => c.close().catch(() => undefined)));
    await world.browser?.close();
    await world.portico?.stop();
    await world.sink?.close();
  });

  async function freshContext(): Promise<BrowserContext> {
    const context = await newContext(world.browser);
    contexts.push(context);
    return context;
  }

  const freshPage = async (): Promise<Page> => (await freshContext()).newPage();

  // A failed test leaves a picture of each of its pages.
  // The web server's Content-Security-Policy blocks nothing the app does.
  afterEach(() => {
    expect(policyViolations.splice(0)).toEqual([]);
  });

  afterEach(async (test) => {
    if (test.task.result?.state !== 'fail') return;
    const pages = contexts.flatMap((c) => c.pages());
    await Promise.all(
      pages.map((p, i) =>
        recordFailedPage(p, `failed-${test.task.name.slice(0, 40)}-${i}`).catch(() => undefined),
      ),
    );
  });

  return { world, freshContext, freshPage };
}
