import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { UserRow } from '@portico/storage';
import { findApiById, findLatestEventOfApi, insertEvent, updateApi } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import type { TestApp } from '../../test-support/index.js';
import { createUser, grantPlatformRole, startTestApp } from '../../test-support/index.js';
import { createApiServices, type ApiServices } from './apis.routes.js';
import { uniquePath } from './test-support/index.js';

/**
 * A deploy writes the API's state into its PUBLISH_API event, which the gateways apply as the newest
 * word on the API's state. A start committed by another request (another management process) while
 * the deploy runs must not be overridden by a state the deploy read before it. SQLite runs one write
 * transaction at a time, so the race exists on PostgreSQL only.
 */
const dialects = await testDialects();
describe.skipIf(!dialects.includes('postgres'))('postgres: API lifecycle under concurrent changes', () => {
  let t: TestApp;
  let s: ApiServices;
  let owner: UserRow;

  beforeAll(async () => {
    t = await startTestApp('postgres');
    s = createApiServices({
      ctx: t.ctx,
      permissions: t.services.permissions,
      audit: t.services.audit,
      settings: t.services.settings,
    });
    owner = await createUser(t.db);
    await grantPlatformRole(t.db, owner.id, 'MANAGEMENT', 'API_PUBLISHER');
  });
  afterAll(() => t?.close());

  /** Lock waits of this database's sessions. */
  const lockWaits = async () => {
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock'`.execute(t.db);
    return rows[0]!.n;
  };

  it('deploys with the state a start committed meanwhile, never the state read before it', async () => {
    const api = await s.apis.create(owner, {
      name: 'Race',
      version: '1.0',
      description: 'Deploy against start',
      context_path: uniquePath('race'),
      endpoint: 'https://race.example.com',
    });
    await s.lifecycle.deploy(owner, api.id);

    // Another writer starts the API and holds its transaction open.
    let commit!: () => void;
    const held = new Promise<void>((resolve) => (commit = resolve));
    let started!: () => void;
    const inside = new Promise<void>((resolve) => (started = resolve));
    const start = t.db.transaction().execute(async (trx) => {
      const now = Date.now();
      await updateApi(trx, api.id, { state: 'STARTED', updated_at: now });
      await insertEvent(trx, {
        id: `start-${api.id}`,
        type: 'START_API',
        payload: JSON.stringify({ id: api.id, state: 'STARTED' }),
        properties: '{}',
        api_id: api.id,
        user_id: owner.id,
        created_at: now,
        updated_at: now,
      });
      started();
      await held;
    });
    await inside;
    const deploy = s.lifecycle.deploy(owner, api.id);
    // The deploy waits for the start's row lock; then the start commits.
    for (let i = 0; i < 200 && (await lockWaits()) === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(await lockWaits()).toBeGreaterThan(0);
    commit();
    await start;
    await deploy;

    expect((await findApiById(t.db, api.id))!.state).toBe('STARTED');
    const published = await findLatestEventOfApi(t.db, api.id, 'PUBLISH_API');
    // The newest lifecycle event is this deployment: it must carry the committed state.
    expect(JSON.parse(published!.payload!).state).toBe('STARTED');
  });
});
