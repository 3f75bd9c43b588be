import { conflict, invalidField, notFound } from '@portico/model';
import type { Kysely } from 'kysely';
import type { ApiViewer, Database, Executor, ViewRow } from '@portico/storage';
import {
  clearDefaultView,
  countApis,
  countApisByView,
  deleteView,
  findAllViews,
  findApiById,
  findView,
  findViewsByIds,
  insertView,
  setApiViews,
  updateView,
} from '@portico/storage';
import type { UserRow } from '@portico/storage';
import type { AuditService } from '../audit/audit.service.js';
import { idFromName } from '../../http/ids.js';
import { validatePicture } from '../users/avatar.js';

/** The view every API belongs to; it cannot be deleted. */
export const ALL_VIEW = 'all';

export interface ViewInput {
  name: string;
  description?: string | null | undefined;
  order?: number | undefined;
  defaultView?: boolean | undefined;
  hidden?: boolean | undefined;
  picture?: string | null | undefined;
  highlightApi?: string | null | undefined;
}

export interface ViewWithCount extends ViewRow {
  total_apis: number;
}

/** Views (console-applications-and-settings.md 2.3, 4): order, default (one at most), hidden, pictures. */
export class ViewsService {
  constructor(
    readonly db: Kysely<Database>,
    private readonly audit: AuditService,
    private readonly now: () => number,
  ) {}

  /** The views; their counts are of the APIs the viewer may see (every API when none is given). */
  async list(includeHidden: boolean, viewer?: ApiViewer): Promise<ViewWithCount[]> {
    const [views, counts, total] = await Promise.all([
      findAllViews(this.db),
      countApisByView(this.db, viewer),
      countApis(this.db, viewer),
    ]);
    return views
      .filter((v) => includeHidden || v.hidden === 0)
      .map((v) => ({ ...v, total_apis: v.id === ALL_VIEW ? total : (counts.get(v.id) ?? 0) }));
  }

  async get(id: string, viewer?: ApiViewer): Promise<ViewWithCount> {
    const view = id === 'default' ? await this.defaultView() : await findView(this.db, id);
    if (!view) throw notFound('View', id);
    const total =
      view.id === ALL_VIEW
        ? await countApis(this.db, viewer)
        : ((await countApisByView(this.db, viewer)).get(view.id) ?? 0);
    return { ...view, total_apis: total };
  }

  private async defaultView(): Promise<ViewRow | undefined> {
    const views = await findAllViews(this.db);
    return views.find((v) => v.default_view === 1) ?? views.find((v) => v.id === ALL_VIEW);
  }

  async create(actor: UserRow, input: ViewInput): Promise<ViewWithCount> {
    const id = idFromName(input.name);
    return this.inTransaction(async (trx) => {
      if (await findView(trx, id)) throw conflict(`A view with the name [${input.name}] already exists.`);
      await this.assertNameFree(trx, input.name);
      if (input.defaultView) await clearDefaultView(trx);
      const order =
        input.order ?? (await findAllViews(trx)).reduce((max, v) => Math.max(max, v.order), 0) + 1;
      const now = this.now();
      await insertView(trx, {
        id,
        name: input.name,
        description: input.description ?? null,
        order,
        default_view: input.defaultView ? 1 : 0,
        hidden: input.hidden ? 1 : 0,
        picture: input.picture ? validatePicture('picture', input.picture) : null,
        highlight_api: input.highlightApi ?? null,
        created_at: now,
        updated_at: now,
      });
      const view = (await findView(trx, id))!;
      await this.record(trx, actor, 'VIEW_CREATED', id, undefined, view);
      return { ...view, total_apis: 0 };
    });
  }

  async update(actor: UserRow, id: string, input: ViewInput): Promise<ViewWithCount> {
    await this.inTransaction(async (trx) => this.updateOne(trx, actor, id, input));
    return this.get(id);
  }

  /** `PUT configuration/views`: several views at once (the order after the arrows moved one). */
  async updateMany(actor: UserRow, inputs: (ViewInput & { id: string })[]): Promise<ViewWithCount[]> {
    await this.inTransaction(async (trx) => {
      for (const input of inputs) await this.updateOne(trx, actor, input.id, input);
    });
    const byId = new Map((await this.list(true)).map((v) => [v.id, v]));
    return inputs.map((i) => byId.get(i.id)!);
  }

  private async updateOne(trx: Executor, actor: UserRow, id: string, input: ViewInput): Promise<void> {
    const before = await findView(trx, id);
    if (!before) throw notFound('View', id);
    await this.assertNameFree(trx, input.name, id);
    if (input.defaultView && before.default_view === 0) await clearDefaultView(trx);
    const picture =
      input.picture === undefined || input.picture === before.picture
        ? undefined
        : input.picture === null
          ? null
          : validatePicture('picture', input.picture);
    await updateView(trx, id, {
      name: input.name,
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.order !== undefined ? { order: input.order } : {}),
      ...(input.defaultView !== undefined ? { default_view: input.defaultView ? 1 : 0 } : {}),
      ...(input.hidden !== undefined ? { hidden: input.hidden ? 1 : 0 } : {}),
      ...(picture !== undefined ? { picture } : {}),
      ...(input.highlightApi !== undefined ? { highlight_api: input.highlightApi } : {}),
      updated_at: Math.max(this.now(), before.updated_at + 1),
    });
    await this.record(trx, actor, 'VIEW_UPDATED', id, before, await findView(trx, id));
  }

  /** Deletes a view (never `all`) and takes it off every API. */
  async delete(actor: UserRow, id: string): Promise<void> {
    if (id === ALL_VIEW) throw invalidField('id', 'the view [all] cannot be deleted');
    await this.inTransaction(async (trx) => {
      const before = await findView(trx, id);
      if (!before) throw notFound('View', id);
      await deleteView(trx, id);
      const apis = await trx
        .selectFrom('apis')
        .select(['id', 'views'])
        .where('views', 'like', `%"${id}"%`)
        .execute();
      for (const api of apis) {
        const views = (JSON.parse(api.views) as string[]).filter((v) => v !== id);
        await setApiViews(trx, api.id, views, this.now());
      }
      await this.record(trx, actor, 'VIEW_DELETED', id, before, undefined);
    });
  }

  /** 400 naming `field` when one of the view ids does not exist. */
  async assertExist(db: Executor, ids: readonly string[], field = 'views'): Promise<void> {
    const wanted = [...new Set(ids)];
    const known = new Set((await findViewsByIds(db, wanted)).map((v) => v.id));
    const unknown = wanted.find((v) => !known.has(v));
    if (unknown !== undefined) throw invalidField(field, `the view [${unknown}] does not exist`);
  }

  /** The picture bytes of a view. */
  async picture(id: string): Promise<{ type: string; body: Buffer } | undefined> {
    const view = await findView(this.db, id);
    if (!view) throw notFound('View', id);
    const match = view.picture ? /^data:(image\/[a-z+.-]+);base64,(.+)$/s.exec(view.picture) : null;
    return match ? { type: match[1]!, body: Buffer.from(match[2]!, 'base64') } : undefined;
  }

  async apiExists(id: string): Promise<boolean> {
    return !!(await findApiById(this.db, id));
  }

  private async assertNameFree(db: Executor, name: string, id?: string): Promise<void> {
    const same = (await findAllViews(db)).find(
      (v) => v.id !== id && v.name.trim().toLowerCase() === name.trim().toLowerCase(),
    );
    if (same) throw invalidField('name', `a view named [${name}] already exists`);
  }

  private async inTransaction<T>(work: (trx: Executor) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  private async record(
    db: Executor,
    actor: UserRow,
    event: string,
    id: string,
    before: unknown,
    after: unknown,
  ): Promise<void> {
    const strip = (v: unknown) => (v && typeof v === 'object' ? { ...v, picture: undefined } : v);
    await this.audit.record(db, {
      referenceType: 'ENVIRONMENT',
      referenceId: 'DEFAULT',
      userId: actor.id,
      event,
      properties: { VIEW: id },
      before: strip(before),
      after: strip(after),
    });
  }
}
