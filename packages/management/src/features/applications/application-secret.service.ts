import { randomBytes } from 'node:crypto';
import { invalidField } from '@portico/model';
import type { ApplicationRow, Database, UserRow } from '@portico/storage';
import { updateApplication } from '@portico/storage';
import type { Kysely } from 'kysely';
import type { AuditService } from '../audit/audit.service.js';
import type { ApplicationRegistrar } from '../client-registration/application-registrar.js';
import { AfterCommit } from '../subscriptions/after-commit.js';
import type { SubscriptionService } from '../subscriptions/subscriptions.service.js';
import { auditedApplication, settingsOf } from './applications.mapper.js';
import type { ApplicationService } from './applications.service.js';

export const NO_SECRET_FOR_SIMPLE = 'A SIMPLE application has no client secret.';

export interface ApplicationSecretDeps {
  db: Kysely<Database>;
  applications: ApplicationService;
  audit: AuditService;
  subscriptions: SubscriptionService;
  registrar?: ApplicationRegistrar;
  now: () => number;
}

/**
 * `POST applications/{id}/renew_secret` (as Gravitee 1.x): a new client secret for a BROWSER, WEB or
 * NATIVE application, from the client registration provider for a registered client, else generated.
 */
export class ApplicationSecretService {
  constructor(private readonly deps: ApplicationSecretDeps) {}

  async renew(actor: UserRow, id: string): Promise<ApplicationRow> {
    const row = await this.deps.applications.get(id);
    const settings = settingsOf(row);
    const oauth = settings.oauth;
    if (row.type === 'SIMPLE' || !oauth) throw invalidField('settings.oauth', NO_SECRET_FOR_SIMPLE);
    const renewed = (await this.deps.registrar?.renew(id, row.name, oauth)) ?? {
      client_id: oauth.client_id,
      client_secret: randomBytes(32).toString('base64url'),
      save: async () => undefined,
    };
    const after = new AfterCommit();
    const saved = await this.deps.db.transaction().execute(async (trx) => {
      const current = await this.deps.applications.get(id, trx);
      const next = {
        ...settingsOf(current),
        oauth: { ...oauth, client_id: renewed.client_id, client_secret: renewed.client_secret },
      };
      await updateApplication(trx, id, {
        settings: JSON.stringify(next),
        client_id: renewed.client_id,
        updated_at: Math.max(this.deps.now(), current.updated_at + 1),
      });
      await renewed.save(trx, id);
      const updated = await this.deps.applications.get(id, trx);
      if (updated.client_id !== current.client_id)
        await this.deps.subscriptions.followClientId(trx, updated, after);
      await this.deps.audit.record(trx, {
        referenceType: 'APPLICATION',
        referenceId: id,
        userId: actor.id,
        event: 'APPLICATION_UPDATED',
        properties: { CLIENT_SECRET: 'renewed' },
        before: auditedApplication(current),
        after: auditedApplication(updated),
      });
      return updated;
    });
    await this.deps.subscriptions.flush(after);
    return saved;
  }
}
