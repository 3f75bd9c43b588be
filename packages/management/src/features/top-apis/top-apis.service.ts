import type { Kysely } from 'kysely';
import { invalidField, notFound } from '@portico/model';
import type { ApiRow, Database, UserRow } from '@portico/storage';
import { deleteTopApi, findApisByIds, findTopApis, replaceTopApis } from '@portico/storage';
import type { AuditService } from '../audit/audit.service.js';

export interface TopApi {
  api: ApiRow;
  order: number;
}

/** The portal's top APIs in their order (`configuration/top-apis`; `GET apis?top=true` follows it). */
export class TopApisService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly audit: AuditService,
  ) {}

  async list(db: Kysely<Database> = this.db): Promise<TopApi[]> {
    const top = await findTopApis(db);
    const apis = new Map(
      (
        await findApisByIds(
          db,
          top.map((t) => t.api_id),
        )
      ).map((a) => [a.id, a]),
    );
    return top.flatMap((t, order) => {
      const api = apis.get(t.api_id);
      return api ? [{ api, order }] : [];
    });
  }

  /** Adds an API at the end; it must exist and not be there yet. */
  async add(actor: UserRow, apiId: string): Promise<TopApi[]> {
    await this.db.transaction().execute(async (trx) => {
      const [api] = await findApisByIds(trx, [apiId]);
      if (!api) throw invalidField('api', `the API [${apiId}] does not exist`);
      const ids = (await findTopApis(trx)).map((t) => t.api_id);
      if (ids.includes(apiId)) throw invalidField('api', `the API [${apiId}] is already a top API`);
      await replaceTopApis(trx, [...ids, apiId]);
      await this.record(trx, actor, 'TOP_API_CREATED', apiId, ids, [...ids, apiId]);
    });
    return this.list();
  }

  /** New order: the same APIs as today, each once. */
  async reorder(actor: UserRow, apiIds: string[]): Promise<TopApi[]> {
    await this.db.transaction().execute(async (trx) => {
      const ids = (await findTopApis(trx)).map((t) => t.api_id);
      const same =
        apiIds.length === ids.length &&
        new Set(apiIds).size === apiIds.length &&
        apiIds.every((a) => ids.includes(a));
      if (!same) throw invalidField('api', 'the list must hold the current top APIs, each once');
      await replaceTopApis(trx, apiIds);
      await this.record(trx, actor, 'TOP_API_UPDATED', 'ORDER', ids, apiIds);
    });
    return this.list();
  }

  async remove(actor: UserRow, apiId: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const ids = (await findTopApis(trx)).map((t) => t.api_id);
      if (!ids.includes(apiId)) throw notFound('Top API', apiId);
      await deleteTopApi(trx, apiId);
      const left = ids.filter((id) => id !== apiId);
      await replaceTopApis(trx, left);
      await this.record(trx, actor, 'TOP_API_DELETED', apiId, ids, left);
    });
  }

  private record(
    db: Parameters<AuditService['record']>[0],
    actor: UserRow,
    event: string,
    api: string,
    before: string[],
    after: string[],
  ) {
    return this.audit.record(db, {
      referenceType: 'ENVIRONMENT',
      referenceId: 'DEFAULT',
      userId: actor.id,
      event,
      properties: { API: api },
      before: { top_apis: before },
      after: { top_apis: after },
    });
  }
}
