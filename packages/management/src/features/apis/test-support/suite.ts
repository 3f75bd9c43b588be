import { afterAll, beforeAll } from 'vitest';
import type { TestApp } from '../../../test-support/index.js';

/** Starts an app before the tests of the suite, hands it to `set`, and closes it after them. */
export function useStartedApp<T extends { t: TestApp }>(
  start: () => Promise<T>,
  set: (suite: T) => void,
): void {
  let started: TestApp | undefined;
  beforeAll(async () => {
    const suite = await start();
    started = suite.t;
    set(suite);
  });
  afterAll(() => started?.close());
}
