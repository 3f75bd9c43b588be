// The data of the gateway benchmark: a key-less API, the same with tracing off in its settings, and an
// API-key API with a (high) rate limit, deployed in Portico's storage, with an accepted subscription and
// its key.
import { randomUUID } from 'node:crypto';

/** Deploys the two APIs to the backend at `target`; answers nothing, the gateway reads the events. */
export async function seedBenchApis(storage, target, KEY) {
  const now = Date.now();
  const deploy = async (contextPath, plan, proxy = {}) => {
    const id = randomUUID();
    const payload = {
      id,
      name: contextPath,
      version: '1',
      description: null,
      visibility: 'PUBLIC',
      state: 'STARTED',
      deployed_at: now,
      definition: {
        id,
        name: contextPath,
        version: '1',
        proxy: {
          context_path: contextPath,
          groups: [{ name: 'default', endpoints: [{ name: 'backend', target }] }],
          ...proxy,
        },
      },
      plans: [
        {
          id: randomUUID(),
          name: 'plan',
          status: 'PUBLISHED',
          order: 0,
          securityDefinition: null,
          tags: [],
          ...plan,
        },
      ],
    };
    await storage.db
      .insertInto('events')
      .values({
        id: randomUUID(),
        type: 'PUBLISH_API',
        payload: JSON.stringify(payload),
        properties: '{}',
        api_id: id,
        user_id: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    return payload;
  };
  await deploy('/keyless', { security: 'KEY_LESS', paths: {} });
  await deploy('/untraced', { security: 'KEY_LESS', paths: {} }, { tracing: { enabled: false } });
  const keyed = await deploy('/keyed', {
    security: 'API_KEY',
    paths: {
      '/': [{ 'rate-limit': { rate: { limit: 100000000, periodTime: 1, periodTimeUnit: 'SECONDS' } } }],
    },
  });
  const subscription = randomUUID();
  const application = randomUUID();
  await storage.db
    .insertInto('subscriptions')
    .values({
      id: subscription,
      api_id: keyed.id,
      plan_id: keyed.plans[0].id,
      application_id: application,
      status: 'ACCEPTED',
      request: null,
      reason: null,
      client_id: null,
      subscribed_by: null,
      processed_by: null,
      created_at: now,
      updated_at: now,
      processed_at: now,
      starting_at: now - 1000,
      ending_at: null,
      paused_at: null,
      closed_at: null,
    })
    .execute();
  await storage.db
    .insertInto('api_keys')
    .values({
      key: KEY,
      subscription_id: subscription,
      application_id: application,
      plan_id: keyed.plans[0].id,
      api_id: keyed.id,
      revoked: 0,
      paused: 0,
      revoked_at: null,
      expire_at: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
}
