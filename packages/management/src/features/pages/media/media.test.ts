import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '@portico/storage/testing';
import type { SignedInUser, TestApp, TestSession } from '../../../test-support/index.js';
import { call, login, signInNewUser, startTestApp } from '../../../test-support/index.js';
import { createApiAs } from '../../apis/test-support/index.js';
import { NOT_AN_IMAGE } from './media.service.js';

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('IHDR-and-some-pixels'),
]);

/** A multipart body with one file field. */
function multipart(data: Buffer, fileName = 'logo.png', field = 'file', type = 'image/png') {
  const boundary = '----portico-test-boundary';
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\nContent-Type: ${type}\r\n\r\n`,
    ),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload: body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

for (const dialect of await testDialects()) {
  describe(`${dialect}: documentation media`, () => {
    let t: TestApp;
    let admin: TestSession;
    let publisher: SignedInUser;
    let outsider: SignedInUser;
    let apiId: string;

    beforeAll(async () => {
      t = await startTestApp(dialect);
      admin = await login(t.app, 'admin', 'admin');
      publisher = await signInNewUser(t.app, t.db, { management: 'API_PUBLISHER' });
      outsider = await signInNewUser(t.app, t.db);
      apiId = (await createApiAs(t, publisher.session)).id;
    });
    afterAll(() => t?.close());

    const upload = (
      session: TestSession | undefined,
      url: string,
      data: Buffer,
      fileName?: string,
      type?: string,
    ) => call(t.app, session, { method: 'POST', url, ...multipart(data, fileName, 'file', type) });

    it('stores an image and serves it back with a safe type and headers', async () => {
      const res = await upload(publisher.session, `/apis/${apiId}/media/upload`, PNG);

      expect(res.statusCode, res.body).toBe(201);
      expect(res.body).toMatch(new RegExp(`^/management/apis/${apiId}/media/[0-9a-f]{64}$`));
      const served = await t.app.inject({
        method: 'GET',
        url: res.body,
        headers: { authorization: `Bearer ${publisher.session.token}` },
      });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('image/png');
      expect(served.headers['x-content-type-options']).toBe('nosniff');
      expect(served.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
      expect(Buffer.compare(served.rawPayload, PNG)).toBe(0);
    });

    it('refuses what is not an image, whatever its name and declared type (SVG and HTML included)', async () => {
      const html = await upload(
        publisher.session,
        `/apis/${apiId}/media/upload`,
        Buffer.from('<script>alert(1)</script>'),
        'x.png',
      );
      const svg = await upload(
        publisher.session,
        `/apis/${apiId}/media/upload`,
        Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
        'x.svg',
        'image/svg+xml',
      );
      expect(html.json()).toMatchObject({ http_status: 400, field: 'file', message: NOT_AN_IMAGE });
      expect(svg.json()).toMatchObject({ http_status: 400, field: 'file', message: NOT_AN_IMAGE });
    });

    it("refuses an image above the portal's media size with the spec's message, and when upload is disabled", async () => {
      const put = (value: Record<string, unknown>) =>
        call(t.app, admin, { method: 'POST', url: '/portal', payload: { portal: { uploadMedia: value } } });
      expect((await put({ enabled: true, maxSizeInOctet: 10 })).statusCode).toBeLessThan(300);
      const big = await upload(publisher.session, `/apis/${apiId}/media/upload`, PNG);
      expect(big.json()).toMatchObject({
        http_status: 400,
        field: 'file',
        message: "file uploaded to big, you're limited at 10",
      });

      expect((await put({ enabled: false, maxSizeInOctet: 1_000_000 })).statusCode).toBeLessThan(300);
      const disabled = await upload(publisher.session, `/apis/${apiId}/media/upload`, PNG);
      expect(disabled.json()).toMatchObject({ http_status: 400, field: 'file' });
      await put({ enabled: true, maxSizeInOctet: 1_000_000 });
    });

    it('answers 403 without api-documentation-c or -u, and serves the portal media', async () => {
      const refused = await upload(outsider.session, `/apis/${apiId}/media/upload`, PNG);
      expect(refused.statusCode).toBe(403);

      const portal = await upload(admin, '/portal/media/upload', PNG);
      expect(portal.statusCode, portal.body).toBe(201);
      const served = await t.app.inject({ method: 'GET', url: portal.body });
      expect(served.headers['content-type']).toBe('image/png');
      expect((await upload(outsider.session, '/portal/media/upload', PNG)).statusCode).toBe(403);
    });
  });
}
