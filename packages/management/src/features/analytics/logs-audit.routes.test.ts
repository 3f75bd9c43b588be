import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '@portico/storage/testing';
import type { TestSession } from '../../test-support/index.js';
import { call, login } from '../../test-support/index.js';
import type { KnownTraffic } from './test-support/known-traffic.js';
import { driveKnownTraffic } from './test-support/known-traffic.js';

for (const dialect of await testDialects()) {
  describe(`${dialect}: audit of the logging consultation (logging.audit.enabled)`, () => {
    let k: KnownTraffic;
    let platformAdmin: TestSession;
    beforeAll(async () => {
      k = await driveKnownTraffic(dialect);
      platformAdmin = await login(k.t.app, 'admin', 'admin');
    });
    afterAll(() => k?.close());

    const setAudit = async (enabled: boolean) => {
      const res = await call(k.t.app, platformAdmin, {
        method: 'POST',
        url: '/portal',
        payload: { logging: { audit: { enabled } } },
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    const readLog = async (scope: string, id: string) => {
      const res = await call(k.t.app, k.admin.session, { method: 'GET', url: `/${scope}/logs/${id}` });
      expect(res.statusCode, res.body).toBe(200);
    };
    const logReads = async () => {
      const res = await call(k.t.app, k.admin.session, {
        method: 'GET',
        url: `/apis/${k.pets.id}/audit?size=100&event=LOG_READ`,
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ content: { event: string; user: string; properties: Record<string, string> }[] }>()
        .content;
    };

    it("records LOG_READ with the request id when an API's log is read, only while the setting is on", async () => {
      const [first, second] = k.ids.alphaGets;
      await setAudit(true);
      await readLog(`apis/${k.pets.id}`, first!);
      const reads = await logReads();
      expect(reads).toHaveLength(1);
      expect(reads[0]).toMatchObject({ event: 'LOG_READ', properties: { REQUEST_ID: first } });
      expect(reads[0]!.user).toBe(k.admin.user.id);

      // An application's log is not audited (Gravitee audited the API's only).
      await readLog(`applications/${k.alpha.id}`, second!);
      await setAudit(false);
      await readLog(`apis/${k.pets.id}`, second!);
      expect(await logReads()).toHaveLength(1);
    });
  });
}
