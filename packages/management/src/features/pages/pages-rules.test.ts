import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPageById } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import type { SignedInUser, TestApp, TestSession } from '../../test-support/index.js';
import {
  call,
  grantRoleOn,
  invalidFieldBody,
  login,
  signInNewUser,
  startTestApp,
} from '../../test-support/index.js';
import { createApiAs } from '../apis/test-support/index.js';
import { SENSITIVE_DATA_REPLACEMENT } from './pages.mapper.js';
import { ROOT_EXISTS } from './pages.service.js';
import { OPENAPI, createPage, names } from './test-support.js';

/** A local GitHub: the contents API of acme/docs, remembering the authorization it was given. */
function githubServer(seen: IncomingMessage['headers'][]): Server {
  return createServer((req, res) => {
    seen.push(req.headers);
    const path = decodeURIComponent(new URL(req.url!, 'http://local').pathname).replace(
      /^\/repos\/acme\/docs\/contents\//,
      '',
    );
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        type: 'file',
        path,
        encoding: 'base64',
        content: Buffer.from(`# ${path}`).toString('base64'),
        html_url: `https://github.example/acme/docs/blob/main/${path}`,
      }),
    );
  });
}

/**
 * Rules of the pages beyond their calls (console-apis.md 2.8, issue 13): the secrets of a source are
 * never given back (as Gravitee 1.x: `********`, and a `********` sent back keeps the stored one, in
 * the pages API and the API export/import); a private API's documentation only for its readers; one
 * ROOT page per documentation; the creation wizard's and an import's pages are checked as the pages
 * API checks them; a deleted group leaves the pages' excluded groups.
 */
for (const dialect of await testDialects()) {
  describe(`${dialect}: page rules`, () => {
    let t: TestApp;
    let admin: TestSession;
    let publisher: SignedInUser;
    let server: Server;
    let githubUrl: string;
    const seen: IncomingMessage['headers'][] = [];

    beforeAll(async () => {
      server = githubServer(seen);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      githubUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      t = await startTestApp(dialect, {
        options: { outbound: { allowPrivate: false, allowed: ['127.0.0.1'] } },
      });
      admin = await login(t.app, 'admin', 'admin');
      publisher = await signInNewUser(t.app, t.db, { management: 'API_PUBLISHER' });
    });
    afterAll(async () => {
      await t?.close();
      server?.close();
    });

    const githubSource = (token: string) => ({
      type: 'github-fetcher',
      configuration: {
        githubUrl,
        owner: 'acme',
        repository: 'docs',
        filepath: 'docs/guide.md',
        personalAccessToken: token,
      },
    });

    it('gives a source back with its token as ********, and keeps the stored token when ******** comes back', async () => {
      const apiId = (await createApiAs(t, publisher.session)).id;
      const base = `/apis/${apiId}/pages`;
      const page = await createPage(t, publisher.session, base, {
        name: 'Guide',
        type: 'MARKDOWN',
        source: githubSource('ghp_secret_1'),
      });
      expect(seen.at(-1)?.authorization).toBe('token ghp_secret_1');
      const read = await call(t.app, publisher.session, { method: 'GET', url: `${base}/${page.id}` });
      expect(read.json().source.configuration).toMatchObject({
        owner: 'acme',
        personalAccessToken: SENSITIVE_DATA_REPLACEMENT,
      });
      expect(read.body).not.toContain('ghp_secret_1');
      const listed = await call(t.app, publisher.session, { method: 'GET', url: base });
      expect(listed.body).not.toContain('ghp_secret_1');

      // Saved back as read: the token stays, and the page is not fetched again.
      const fetches = seen.length;
      const saved = await call(t.app, publisher.session, {
        method: 'PUT',
        url: `${base}/${page.id}`,
        payload: { name: 'Guide v2', published: true, source: read.json().source },
      });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(seen.length).toBe(fetches);
      const stored = JSON.parse((await findPageById(t.db, page.id))!.source!);
      expect(stored.configuration.personalAccessToken).toBe('ghp_secret_1');
      const fetched = await call(t.app, publisher.session, {
        method: 'POST',
        url: `${base}/${page.id}/_fetch`,
      });
      expect(fetched.statusCode, fetched.body).toBe(200);
      expect(seen.at(-1)?.authorization).toBe('token ghp_secret_1');

      // A new token replaces it.
      await call(t.app, publisher.session, {
        method: 'PUT',
        url: `${base}/${page.id}`,
        payload: { name: 'Guide v2', source: githubSource('ghp_secret_2') },
      });
      expect(seen.at(-1)?.authorization).toBe('token ghp_secret_2');

      // The export masks it too; importing the export back keeps the page's token.
      const exported = await call(t.app, publisher.session, { method: 'GET', url: `/apis/${apiId}/export` });
      expect(exported.statusCode, exported.body).toBe(200);
      expect(exported.body).not.toContain('ghp_secret_2');
      expect(exported.json().pages[0].source.configuration.personalAccessToken).toBe(
        SENSITIVE_DATA_REPLACEMENT,
      );
      const reimported = await call(t.app, publisher.session, {
        method: 'POST',
        url: `/apis/${apiId}/import`,
        payload: { type: 'INLINE', payload: exported.body },
      });
      expect(reimported.statusCode, reimported.body).toBe(200);
      const after = JSON.parse((await findPageById(t.db, page.id))!.source!);
      expect(after.configuration.personalAccessToken).toBe('ghp_secret_2');
    });

    it('refuses the documentation of a private API to anonymous readers and to users not its members', async () => {
      const hidden = (await createApiAs(t, publisher.session)).id;
      const page = await createPage(t, publisher.session, `/apis/${hidden}/pages`, {
        name: 'Hidden',
        type: 'MARKDOWN',
        published: true,
      });
      const outsider = await signInNewUser(t.app, t.db);
      for (const session of [undefined, outsider.session])
        for (const url of [`/apis/${hidden}/pages`, `/apis/${hidden}/pages/${page.id}/content`]) {
          const res = await call(t.app, session, { method: 'GET', url });
          expect(res.statusCode, `${url}: ${res.body}`).toBe(403);
        }

      await grantRoleOn(t.db, outsider.user.id, 'API', hidden, 'USER');
      const list = await call(t.app, outsider.session, { method: 'GET', url: `/apis/${hidden}/pages` });
      expect(names(list)).toEqual(['Hidden']);
    });

    it('has one ROOT page at most in a documentation', async () => {
      const apiId = (await createApiAs(t, publisher.session)).id;
      await createPage(t, publisher.session, `/apis/${apiId}/pages`, { name: 'Root', type: 'ROOT' });
      const second = await call(t.app, publisher.session, {
        method: 'POST',
        url: `/apis/${apiId}/pages`,
        payload: { name: 'Another root', type: 'ROOT' },
      });
      expect(second.statusCode).toBe(400);
      expect(second.json()).toEqual(invalidFieldBody('type', ROOT_EXISTS));
      // Another documentation has its own.
      const other = (await createApiAs(t, publisher.session)).id;
      await createPage(t, publisher.session, `/apis/${other}/pages`, { name: 'Root', type: 'ROOT' });
    });

    it("checks the creation wizard's pages as the pages API does: nothing is created from a bad page", async () => {
      const definition = (pages: unknown[], contextPath: string) => ({
        type: 'INLINE',
        payload: JSON.stringify({
          name: 'Wizard',
          version: '1',
          description: 'From the creation wizard',
          proxy: {
            context_path: contextPath,
            endpoints: [{ name: 'e', target: 'http://backend.example.com' }],
          },
          pages,
        }),
      });
      const contextPath = `/wizard-${dialect}`;
      const bad = await call(t.app, publisher.session, {
        method: 'POST',
        url: '/apis/import',
        payload: definition(
          [
            { name: 'Readme', type: 'MARKDOWN', content: '# Hello' },
            { name: 'Contract', type: 'SWAGGER', content: 'title: not an OpenAPI document' },
          ],
          contextPath,
        ),
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().field).toBe('pages.1.content');
      const verify = await call(t.app, publisher.session, {
        method: 'POST',
        url: '/apis/verify',
        payload: { context_path: contextPath },
      });
      expect(verify.json()).toMatchObject({ available: true });

      const unknownType = await call(t.app, publisher.session, {
        method: 'POST',
        url: '/apis/import',
        payload: definition([{ name: 'Odd', type: 'WORD', content: 'x' }], contextPath),
      });
      expect(unknownType.statusCode).toBe(400);
      expect(unknownType.json().field).toBe('pages.0.type');

      const good = await call(t.app, publisher.session, {
        method: 'POST',
        url: '/apis/import',
        payload: definition(
          [
            { name: 'Readme', type: 'MARKDOWN', content: '# Hello' },
            { name: 'Contract', type: 'SWAGGER', content: OPENAPI },
          ],
          contextPath,
        ),
      });
      expect(good.statusCode, good.body).toBe(200);
      const pages = await call(t.app, publisher.session, {
        method: 'GET',
        url: `/apis/${good.json().id}/pages`,
      });
      expect(
        pages
          .json()
          .map((p: { name: string }) => p.name)
          .sort(),
      ).toEqual(['Contract', 'Readme']);
    });

    it("takes a deleted group out of the pages' excluded groups", async () => {
      const apiId = (await createApiAs(t, publisher.session)).id;
      const group = await call(t.app, admin, {
        method: 'POST',
        url: '/configuration/groups',
        payload: { name: `Partners ${dialect}` },
      });
      expect(group.statusCode, group.body).toBe(201);
      const groupId = group.json().id as string;
      const page = await createPage(t, publisher.session, `/apis/${apiId}/pages`, {
        name: 'Internal',
        type: 'MARKDOWN',
        excluded_groups: [groupId],
      });
      const portal = await createPage(t, admin, '/portal/pages', {
        name: 'Internal portal page',
        type: 'MARKDOWN',
        excluded_groups: [groupId],
      });
      const deleted = await call(t.app, admin, { method: 'DELETE', url: `/configuration/groups/${groupId}` });
      expect(deleted.statusCode, deleted.body).toBe(204);
      for (const [base, id] of [
        [`/apis/${apiId}/pages`, page.id],
        ['/portal/pages', portal.id],
      ] as const) {
        const read = await call(t.app, admin, { method: 'GET', url: `${base}/${id}` });
        expect(read.json().excluded_groups).toEqual([]);
      }
    });
  });
}
