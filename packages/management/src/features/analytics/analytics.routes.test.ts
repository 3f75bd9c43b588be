import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiRow, ApplicationRow } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import type { SignedInUser, TestApp } from '../../test-support/index.js';
import {
  call,
  createApi,
  createApplication,
  errorBody,
  invalidFieldBody,
  signInNewUser,
  startTestApp,
} from '../../test-support/index.js';

const WINDOW = 'from=1000&to=2000000';

for (const dialect of await testDialects()) {
  describe(`${dialect}: analytics and logs routes refuse bad input and missing permissions`, () => {
    let t: TestApp;
    let admin: SignedInUser;
    let stranger: SignedInUser;
    let api: ApiRow;
    let application: ApplicationRow;
    beforeAll(async () => {
      t = await startTestApp(dialect);
      admin = await signInNewUser(t.app, t.db, { management: 'ADMIN' });
      stranger = await signInNewUser(t.app, t.db, { management: 'USER' });
      api = await createApi(t.db);
      application = await createApplication(t.db);
    });
    afterAll(() => t.close());

    const get = (url: string, who: SignedInUser = admin) =>
      call(t.app, who.session, { method: 'GET', url: url.replace('{api}', api.id) });

    it('answers 400 naming the unknown field of q', async () => {
      const res = await get(
        `/apis/{api}/analytics?type=count&${WINDOW}&query=${encodeURIComponent('colour:red')}`,
      );
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual(invalidFieldBody('query', "unknown field 'colour'"));
      const logs = await get(
        `/apis/{api}/logs?${WINDOW}&q=${encodeURIComponent('status:200 OR size:[1 TO 2]')}`,
      );
      expect(logs.json()).toEqual(invalidFieldBody('query', "unknown field 'size'"));
    });

    it('answers 400 on a q that does not parse, and on a word for a number', async () => {
      const broken = await get(
        `/platform/analytics?type=count&${WINDOW}&query=${encodeURIComponent('status:[1 TO')}`,
      );
      expect(broken.json()).toEqual(invalidFieldBody('query', /not a valid Lucene query/));
      const word = await get(`/platform/analytics?type=count&${WINDOW}&query=status:ok`);
      expect(word.json()).toEqual(
        invalidFieldBody('query', "field 'status' is numeric: 'ok' is not a number"),
      );
    });

    it('answers 400 on bad parameters, each named', async () => {
      const cases: [string, string, string | RegExp][] = [
        [`type=top&${WINDOW}`, 'type', /./],
        ['type=count&from=5000&to=1000', 'from', 'from must be before to'],
        [`type=group_by&${WINDOW}`, 'field', "field is required for 'group_by' request"],
        [`type=date_histo&${WINDOW}`, 'interval', "interval is required for 'date_histo' request"],
        [`type=date_histo&interval=10&${WINDOW}`, 'interval', /./],
        [
          `type=date_histo&interval=1000&from=0&to=100000000&aggs=avg:response-time`,
          'interval',
          /at most 10000/,
        ],
        [
          `type=date_histo&interval=1000&${WINDOW}&aggs=median:response-time`,
          'aggs',
          /unknown aggregation 'median'/,
        ],
        [`type=date_histo&interval=1000&${WINDOW}&aggs=avg:path`, 'aggs', "field 'path' is not numeric"],
        [`type=group_by&field=colour&${WINDOW}`, 'field', "unknown field 'colour'"],
        [`type=group_by&field=api&order=-avg:colour&${WINDOW}`, 'order', "unknown field 'colour'"],
        [`type=group_by&field=status&ranges=a:b&${WINDOW}`, 'ranges', "'a:b' is not from:to"],
        [`type=stats&field=method&${WINDOW}`, 'field', "field 'method' is not numeric"],
      ];
      for (const [query, field, reason] of cases) {
        const res = await get(`/apis/{api}/analytics?${query}`);
        expect(res.statusCode, query).toBe(400);
        expect(res.json(), query).toEqual(invalidFieldBody(field, reason));
      }
      const sort = await get(`/apis/{api}/logs?${WINDOW}&field=colour`);
      expect(sort.json()).toEqual(invalidFieldBody('field', "unknown field 'colour'"));
    });

    it('answers 403 without the analytics, log or platform permission, 401 without a session', async () => {
      const forbidden = [
        [`/apis/{api}/analytics?type=count&${WINDOW}`, 'api-analytics-r'],
        [`/apis/{api}/logs?${WINDOW}`, 'api-log-r'],
        [`/apis/{api}/logs/export?${WINDOW}`, 'api-log-r'],
        [`/apis/{api}/logs/some-id`, 'api-log-r'],
        [`/applications/${application.id}/analytics?type=count&${WINDOW}`, 'application-analytics-r'],
        [`/applications/${application.id}/logs?${WINDOW}`, 'application-log-r'],
        [`/platform/analytics?type=count&${WINDOW}`, 'management-platform-r'],
      ];
      for (const [url, permission] of forbidden) {
        const res = await get(url!, stranger);
        expect(res.statusCode, url).toBe(403);
        expect(res.json(), url).toEqual(errorBody(403, new RegExp(permission!)));
      }
      const anonymous = await call(t.app, undefined, {
        method: 'GET',
        url: `/platform/analytics?type=count&${WINDOW}`,
      });
      expect(anonymous.statusCode).toBe(401);
    });

    it('answers 404 for a log that is not the API’s', async () => {
      const res = await get('/apis/{api}/logs/nope');
      expect(res.statusCode).toBe(404);
    });
  });
}
