import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { UserRow } from '@portico/storage';
import { upsertParameter } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import type { TestApp } from '../../test-support/index.js';
import { createGroup, createUser, grantRoleOn, grantRoleThroughGroup } from '../../test-support/index.js';
import type { ApiServices } from './apis.routes.js';
import { insertApiPage } from './test-support/index.js';
import type { NewApi } from './test-support/api-service.js';
import { useApiServiceApp } from './test-support/api-service.js';

for (const dialect of await testDialects()) {
  describe(`${dialect}: API service rules`, () => {
    let t: TestApp, s: ApiServices, owner: UserRow, admin: UserRow, newApi: NewApi;

    useApiServiceApp(dialect, (suite) => ({ t, s, owner, admin, newApi } = suite));

    describe('API list', () => {
      let viewer: UserRow;
      let ids: { publicApi: string; memberApi: string; groupApi: string; hiddenApi: string };

      beforeAll(async () => {
        viewer = await createUser(t.db);
        const group = await createGroup(t.db);
        const publicApi = await newApi({ name: 'list public' });
        await s.apis.update(owner, publicApi.id, { visibility: 'PUBLIC' });
        const memberApi = await newApi({ name: 'list member' });
        await grantRoleOn(t.db, viewer.id, 'API', memberApi.id, 'USER');
        const groupApi = await newApi({ name: 'list group' });
        await s.apis.update(owner, groupApi.id, { groups: [group.id] });
        await grantRoleThroughGroup(t.db, viewer.id, group.id, 'API', 'USER');
        const hiddenApi = await newApi({ name: 'list hidden' });
        ids = {
          publicApi: publicApi.id,
          memberApi: memberApi.id,
          groupApi: groupApi.id,
          hiddenApi: hiddenApi.id,
        };
      });

      const listed = async (actor: UserRow | undefined) =>
        new Map(
          (
            JSON.parse(await s.apis.list(actor, { text: 'list' }, '/')) as {
              id: string;
              manageable: boolean;
            }[]
          ).map((item) => [item.id, item.manageable] as const),
        );

      it('shows a user the PUBLIC APIs and those of which it is a member, directly or through a group', async () => {
        const seen = await listed(viewer);

        expect(seen.get(ids.publicApi)).toBe(false);
        expect(seen.get(ids.memberApi)).toBe(true);
        expect(seen.get(ids.groupApi)).toBe(true);
        expect(seen.has(ids.hiddenApi)).toBe(false);
      });

      it('shows an administrator every API, all manageable', async () => {
        const seen = await listed(admin);

        expect([...Object.values(ids)].every((id) => seen.get(id) === true)).toBe(true);
      });

      it('shows anonymous visitors the PUBLIC APIs only', async () => {
        expect([...(await listed(undefined)).keys()]).toEqual([ids.publicApi]);
      });

      it('keeps the top APIs in their order when asked for them', async () => {
        await t.db
          .insertInto('top_apis')
          .values([
            { api_id: ids.groupApi, order: 0 },
            { api_id: ids.publicApi, order: 1 },
          ])
          .execute();
        try {
          const top = JSON.parse(await s.apis.list(viewer, { top: true }, '/')) as { id: string }[];
          expect(top.map((item) => item.id)).toEqual([ids.groupApi, ids.publicApi]);
        } finally {
          await t.db.deleteFrom('top_apis').execute();
        }
      });
    });

    describe('quality score', () => {
      const weights = async (values: Record<string, number>) => {
        for (const [key, value] of Object.entries(values)) {
          await upsertParameter(t.db, `apiQualityMetrics.${key}`, String(value), 1);
        }
      };
      beforeEach(async () => {
        await t.db.deleteFrom('parameters').where('key', 'like', 'apiQualityMetrics.%').execute();
      });

      it('is 0 with no metric weighed, and reports none', async () => {
        const api = await newApi();

        expect(await s.quality.quality(api.id)).toEqual({ score: 0, metrics_passed: {} });
      });

      it('is the passed weight over the total weight of the metrics in use', async () => {
        await weights({
          descriptionWeight: 1,
          descriptionMinLength: 10,
          labelsWeight: 2,
          viewsWeight: 1,
          logoWeight: 0,
          functionalDocumentationWeight: 4,
          technicalDocumentationWeight: 2,
          healthcheckWeight: 2,
        });
        const api = await newApi({ description: 'long enough text' });
        await s.apis.update(owner, api.id, { labels: ['a'] });
        await insertApiPage(t.db, api.id, { name: 'Guide', type: 'MARKDOWN', published: true });
        await insertApiPage(t.db, api.id, { name: 'Spec', type: 'SWAGGER', published: false });

        expect(await s.quality.quality(api.id)).toEqual({
          score: 7 / 12,
          metrics_passed: {
            functional_documentation: true,
            technical_documentation: false,
            healthcheck: false,
            description: true,
            views: false,
            labels: true,
          },
        });
      });

      it('counts a health check enabled on the API and a picture set', async () => {
        await weights({ healthcheckWeight: 1, logoWeight: 1 });
        const api = await newApi();
        const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]).toString('base64');
        await s.apis.update(owner, api.id, {
          picture: `data:image/png;base64,${png}`,
          services: { 'health-check': { enabled: true, trigger: { rate: 10, unit: 'SECONDS' } } },
        });

        expect(await s.quality.quality(api.id)).toEqual({
          score: 1,
          metrics_passed: { healthcheck: true, logo: true },
        });
      });
    });
  });
}
