import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '@portico/storage/testing';
import type { ApiRow, ApplicationRow } from '@portico/storage';
import type { SignedInUser, TestApp, TestSession } from '../../test-support/index.js';
import {
  call,
  createApi,
  createApplication,
  createGroup,
  errorBody,
  grantRoleOn,
  grantRoleThroughGroup,
  invalidFieldBody,
  login,
  signInNewUser,
  startTestApp,
} from '../../test-support/index.js';
import type { AuditPage } from './audit.query.js';
import type { AuditEntry } from './audit.service.js';

for (const dialect of await testDialects()) {
  describe(`${dialect}: audit trail (audit, audit/events, apis/{api}/audit)`, () => {
    let t: TestApp;
    let admin: TestSession;
    let adminId: string;
    let api: ApiRow;
    let otherApi: ApiRow;
    let application: ApplicationRow;

    beforeAll(async () => {
      t = await startTestApp(dialect);
      admin = await login(t.app, 'admin', 'admin');
      adminId = (await call(t.app, admin, { method: 'GET', url: '/user' })).json().id;
      api = await createApi(t.db, { name: 'Audited API' });
      otherApi = await createApi(t.db, { name: 'Other API' });
      application = await createApplication(t.db, { name: 'Audited app' });
    });
    afterAll(() => t?.close());

    const record = (entry: Partial<AuditEntry> & { event: string }) =>
      t.services.audit.record(t.db, {
        referenceType: 'ENVIRONMENT',
        referenceId: 'DEFAULT',
        userId: adminId,
        ...entry,
      });
    const search = async (query: string, session: TestSession = admin) => {
      const res = await call(t.app, session, { method: 'GET', url: `/audit${query}` });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<AuditPage>();
    };

    it('records a mutation with its JSON patch, shown by GET audit with the user named in metadata', async () => {
      const me = await signInNewUser(t.app, t.db, {}, { firstname: 'Audrey', lastname: 'Trail' });
      const put = await call(t.app, me.session, {
        method: 'PUT',
        url: '/user',
        payload: { lastname: 'Changed' },
      });
      expect(put.statusCode).toBe(200);

      const page = await search('?event=USER_UPDATED');
      const entry = page.content.find((e) => e.user === me.user.id);
      expect(entry).toMatchObject({
        referenceType: 'ENVIRONMENT',
        referenceId: 'DEFAULT',
        event: 'USER_UPDATED',
        properties: { USER: me.user.id },
        createdAt: expect.any(Number),
      });
      expect(JSON.parse(entry!.patch!)).toEqual(
        expect.arrayContaining([{ op: 'replace', path: '/lastname', value: 'Changed' }]),
      );
      expect(page.metadata[`USER:${me.user.id}:name`]).toBe('Audrey Changed');
    });

    it('answers the page shape of the spec, newest first, paged', async () => {
      for (const n of [1, 2, 3]) await record({ event: 'PAGED_EVENT', properties: { N: String(n) } });
      const page = await search('?event=PAGED_EVENT&size=2&page=1');
      expect(Object.keys(page).sort()).toEqual([
        'content',
        'metadata',
        'pageElements',
        'pageNumber',
        'totalElements',
      ]);
      expect(page).toMatchObject({ pageNumber: 1, pageElements: 2, totalElements: 3 });
      expect(page.content.map((e) => e.properties.N)).toEqual(['3', '2']);
      const second = await search('?event=PAGED_EVENT&size=2&page=2');
      expect(second).toMatchObject({ pageNumber: 2, pageElements: 1, totalElements: 3 });
      expect(second.content.map((e) => e.properties.N)).toEqual(['1']);
    });

    describe('filters', () => {
      beforeAll(async () => {
        await record({ event: 'FILTERED', properties: { ON: 'platform' } });
        await record({
          event: 'FILTERED',
          referenceType: 'API',
          referenceId: api.id,
          properties: { ON: 'api' },
        });
        await record({
          event: 'FILTERED',
          referenceType: 'API',
          referenceId: otherApi.id,
          properties: { ON: 'other' },
        });
        await record({
          event: 'FILTERED',
          referenceType: 'APPLICATION',
          referenceId: application.id,
          properties: { ON: 'application' },
        });
      });
      const on = (page: AuditPage) => page.content.map((e) => e.properties.ON).sort();

      it('by event', async () => {
        expect(on(await search('?event=FILTERED'))).toEqual(['api', 'application', 'other', 'platform']);
      });

      it('by API, naming the API in metadata', async () => {
        const page = await search(`?event=FILTERED&api=${api.id}`);
        expect(on(page)).toEqual(['api']);
        expect(page.metadata[`API:${api.id}:name`]).toBe('Audited API');
      });

      it('by application, naming it in metadata', async () => {
        const page = await search(`?event=FILTERED&application=${application.id}`);
        expect(on(page)).toEqual(['application']);
        expect(page.metadata[`APPLICATION:${application.id}:name`]).toBe('Audited app');
      });

      it('platform entries only with mgmt=true', async () => {
        expect(on(await search('?event=FILTERED&mgmt=true'))).toEqual(['platform']);
      });

      it('by period, bounds included', async () => {
        const all = (await search('?event=FILTERED')).content;
        const at = (on: string) => all.find((e) => e.properties.ON === on)!.createdAt;
        const page = await search(`?event=FILTERED&from=${at('api')}&to=${at('other')}`);
        expect(on(page)).toEqual(['api', 'other']);
      });

      it('refuses a period that ends before it starts, naming from', async () => {
        const res = await call(t.app, admin, { method: 'GET', url: '/audit?from=2000&to=1000' });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual(invalidFieldBody('from', 'the start date may not be after the end date'));
      });

      it('refuses an unknown mgmt value, naming it', async () => {
        const res = await call(t.app, admin, { method: 'GET', url: '/audit?mgmt=yes' });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual(invalidFieldBody('mgmt'));
      });
    });

    it('GET audit is refused to a user without management-audit-r, even an API publisher', async () => {
      const publisher = await signInNewUser(t.app, t.db, { management: 'API_PUBLISHER' });
      const res = await call(t.app, publisher.session, { method: 'GET', url: '/audit' });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual(errorBody(403, 'You do not have the permission management-audit-r'));
    });

    it('GET audit/events lists the distinct event names to any signed-in user', async () => {
      await record({ event: 'ZZ_LAST_EVENT' });
      const someone = await signInNewUser(t.app, t.db);
      const res = await call(t.app, someone.session, { method: 'GET', url: '/audit/events' });
      expect(res.statusCode).toBe(200);
      const events = res.json<string[]>();
      expect(events).toEqual(expect.arrayContaining(['USER_CONNECTED', 'ZZ_LAST_EVENT']));
      expect(events).toEqual([...new Set(events)].sort());
      expect((await call(t.app, undefined, { method: 'GET', url: '/audit/events' })).statusCode).toBe(401);
    });

    describe('GET apis/{api}/audit', () => {
      let reviewer: SignedInUser;
      let groupReviewer: SignedInUser;
      let apiUser: SignedInUser;
      let stranger: SignedInUser;

      beforeAll(async () => {
        await record({
          event: 'API_SCOPED',
          referenceType: 'API',
          referenceId: api.id,
          properties: { ON: 'api' },
        });
        await record({
          event: 'API_SCOPED',
          referenceType: 'API',
          referenceId: otherApi.id,
          properties: { ON: 'other' },
        });
        await record({ event: 'API_SCOPED', properties: { ON: 'platform' } });
        reviewer = await signInNewUser(t.app, t.db);
        await grantRoleOn(t.db, reviewer.user.id, 'API', api.id, 'REVIEWER');
        const group = await createGroup(t.db);
        await t.db
          .updateTable('apis')
          .set({ groups: JSON.stringify([group.id]) })
          .where('id', '=', api.id)
          .execute();
        groupReviewer = await signInNewUser(t.app, t.db);
        await grantRoleThroughGroup(t.db, groupReviewer.user.id, group.id, 'API', 'REVIEWER');
        apiUser = await signInNewUser(t.app, t.db);
        await grantRoleOn(t.db, apiUser.user.id, 'API', api.id, 'USER');
        stranger = await signInNewUser(t.app, t.db);
      });
      const apiAudit = (session: TestSession, apiId = api.id, query = '?event=API_SCOPED') =>
        call(t.app, session, { method: 'GET', url: `/apis/${apiId}/audit${query}` });

      it("shows only the API's entries to a member holding api-audit-r, directly or through a group", async () => {
        for (const session of [reviewer.session, groupReviewer.session, admin]) {
          const res = await apiAudit(session);
          expect(res.statusCode).toBe(200);
          const page = res.json<AuditPage>();
          expect(page.content.map((e) => e.properties.ON)).toEqual(['api']);
          expect(page.metadata[`API:${api.id}:name`]).toBe('Audited API');
        }
      });

      it('ignores api, application and mgmt in the query', async () => {
        const res = await apiAudit(
          reviewer.session,
          api.id,
          `?event=API_SCOPED&api=${otherApi.id}&mgmt=true`,
        );
        expect(res.json<AuditPage>().content.map((e) => e.properties.ON)).toEqual(['api']);
      });

      it('is refused (API scope) to a member without api-audit-r and to a non-member', async () => {
        for (const session of [apiUser.session, stranger.session]) {
          const res = await apiAudit(session);
          expect(res.statusCode).toBe(403);
          expect(res.json()).toEqual(errorBody(403, 'You do not have the permission api-audit-r'));
        }
      });

      it("is refused on another API than the reviewer's", async () => {
        const res = await apiAudit(reviewer.session, otherApi.id);
        expect(res.statusCode).toBe(403);
      });

      it('answers 404 for an unknown API', async () => {
        const res = await apiAudit(admin, 'no-such-api');
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual(errorBody(404, 'Api [no-such-api] can not be found.'));
      });
    });
  });
}
