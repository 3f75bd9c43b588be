import { randomUUID } from 'node:crypto';
import type { NewPlan } from '@portico/model';
import { DomainError, NewPlan as NewPlanSchema } from '@portico/model';
import type { ApplicationRow, BusMessage, UserRow } from '@portico/storage';
import type { TestApp } from '../../../test-support/index.js';
import { createApplication, grantRoleOn } from '../../../test-support/index.js';
import { uniquePath } from '../../apis/test-support/index.js';
import type { SubscriptionServices } from '../subscriptions.wiring.js';
import { createSubscriptionServices } from '../subscriptions.wiring.js';

/** Test support of plans, subscriptions, keys and applications. */

/** The services of the feature on the test app's database and clock. */
export const subscriptionServices = (t: TestApp): SubscriptionServices =>
  createSubscriptionServices({
    ctx: t.ctx,
    permissions: t.services.permissions,
    audit: t.services.audit,
    settings: t.services.settings,
    mail: t.services.mail,
    notifications: t.services.notifications,
  });

/** The refusal a promise ends with: status, message and field. */
export async function refusal(
  promise: Promise<unknown>,
): Promise<{ status: number; message: string; field?: string | undefined }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof DomainError)
      return { status: error.httpStatus, message: error.message, field: error.parameters.field };
    throw error;
  }
  throw new Error('expected a refusal');
}

/** A plan payload as the wizard sends it (parsed like the route does). */
export const planInput = (fields: Partial<Record<keyof NewPlan, unknown>> = {}): NewPlan =>
  NewPlanSchema.parse({
    name: `Plan ${randomUUID().slice(0, 6)}`,
    description: 'A plan',
    security: 'API_KEY',
    validation: 'MANUAL',
    ...fields,
  });

/** An API created by its owner through the service (a real definition, deployable). */
export async function newApi(s: SubscriptionServices, owner: UserRow, name = 'Orders') {
  return s.apis.create(owner, {
    name,
    version: '1.0',
    description: `${name} of the shop`,
    context_path: uniquePath(name.toLowerCase()),
    endpoint: 'https://backend.example.com',
  });
}

/** A published plan of the API, created and published through the service. */
export async function publishedPlan(
  s: SubscriptionServices,
  actor: UserRow,
  apiId: string,
  fields: Partial<Record<keyof NewPlan, unknown>> = {},
) {
  const plan = await s.plans.create(actor, apiId, planInput(fields));
  return s.plans.publish(actor, apiId, plan.id);
}

/** An active application owned by the user (PRIMARY_OWNER). */
export async function ownedApplication(
  t: TestApp,
  owner: UserRow,
  fields: Parameters<typeof createApplication>[1] = {},
): Promise<ApplicationRow> {
  const app = await createApplication(t.db, fields);
  await grantRoleOn(t.db, owner.id, 'APPLICATION', app.id, 'PRIMARY_OWNER');
  return app;
}

/** Keeps what is published on the app's bus. */
export function busRecorder(t: TestApp): { messages: BusMessage[]; clear(): void; stop(): void } {
  const messages: BusMessage[] = [];
  const stop = t.ctx.bus.subscribe((m) => messages.push(m));
  return { messages, clear: () => void messages.splice(0), stop };
}
