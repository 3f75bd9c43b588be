import type { Dialect } from '@portico/storage';
import type { TestApp } from '../../../test-support/index.js';
import { startTestApp } from '../../../test-support/index.js';
import type { ApiUsers } from './index.js';
import { apiUsers } from './index.js';
import { useStartedApp } from './suite.js';

/** Shared setup of the `API calls` route tests (apis.*.routes.test.ts). */

export const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
export const PNG_URL = `data:image/png;base64,${PNG.toString('base64')}`;

export const badField = (field: string, message: string) => ({
  http_status: 400,
  message: `Invalid value for field '${field}': ${message}`,
  field,
});

/** Starts the app with its API users; the views given on an API must exist (issue 12). */
export async function startApiCallsApp(dialect: Dialect): Promise<{ t: TestApp; u: ApiUsers }> {
  const t = await startTestApp(dialect);
  const u = await apiUsers(t);
  await t.db
    .insertInto('views')
    .values(['travel', 'sales'].map((id) => ({ id, name: id, created_at: 0, updated_at: 0 })))
    .execute();
  return { t, u };
}

/** Starts that app before the tests of the suite and closes it after them. */
export const useApiCallsApp = (dialect: Dialect, set: (app: { t: TestApp; u: ApiUsers }) => void): void =>
  useStartedApp(() => startApiCallsApp(dialect), set);
