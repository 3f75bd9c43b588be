import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPagesOfReference } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import type { SignedInUser, TestApp, TestSession } from '../../test-support/index.js';
import {
  call,
  createGroup,
  grantRoleThroughGroup,
  login,
  signInNewUser,
  startTestApp,
} from '../../test-support/index.js';
import { createApiAs } from '../apis/test-support/index.js';
import { OPENAPI, createPage, names } from './test-support.js';

for (const dialect of await testDialects()) {
  describe(`${dialect}: portal pages, and pages made by the creation wizard and the OpenAPI import`, () => {
    let t: TestApp;
    let admin: TestSession;
    let user: SignedInUser;
    let publisher: SignedInUser;

    beforeAll(async () => {
      t = await startTestApp(dialect);
      admin = await login(t.app, 'admin', 'admin');
      user = await signInNewUser(t.app, t.db);
      publisher = await signInNewUser(t.app, t.db, { management: 'API_PUBLISHER' });
    });
    afterAll(() => t?.close());

    it('serves the portal documentation: published pages to anyone, writes with portal-documentation-*', async () => {
      const home = await createPage(t, admin, '/portal/pages', {
        name: 'Welcome',
        type: 'MARKDOWN',
        content: '# Welcome',
        published: true,
        homepage: true,
      });
      await createPage(t, admin, '/portal/pages', { name: 'Draft', type: 'MARKDOWN' });

      const anonymous = await call(t.app, undefined, { method: 'GET', url: '/portal/pages' });
      expect(names(anonymous)).toEqual(['Welcome']);
      const homepage = await call(t.app, undefined, { method: 'GET', url: '/portal/pages?homepage=true' });
      expect(names(homepage)).toEqual(['Welcome']);
      expect(
        (await call(t.app, undefined, { method: 'GET', url: `/portal/pages/${home.id}?portal=true` })).json()
          .content,
      ).toBe('# Welcome');
      expect(names(await call(t.app, admin, { method: 'GET', url: '/portal/pages' }))).toEqual([
        'Welcome',
        'Draft',
      ]);

      const refused = await call(t.app, user.session, {
        method: 'POST',
        url: '/portal/pages',
        payload: { name: 'x', type: 'MARKDOWN' },
      });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().message).toContain('portal-documentation-c');
      expect(await findPagesOfReference(t.db, 'API', 'DEFAULT')).toEqual([]);
    });

    it('hides a portal page from the members of its excluded groups, and from anonymous readers', async () => {
      const group = await createGroup(t.db, `portal-excluded-${dialect}`);
      const member = await signInNewUser(t.app, t.db);
      await grantRoleThroughGroup(t.db, member.user.id, group.id, 'API', 'USER');
      const page = await createPage(t, admin, '/portal/pages', {
        name: 'Staff',
        type: 'MARKDOWN',
        published: true,
        excluded_groups: [group.id],
      });

      expect(names(await call(t.app, member.session, { method: 'GET', url: '/portal/pages' }))).not.toContain(
        'Staff',
      );
      expect(
        (await call(t.app, member.session, { method: 'GET', url: `/portal/pages/${page.id}` })).statusCode,
      ).toBe(403);
      expect(names(await call(t.app, undefined, { method: 'GET', url: '/portal/pages' }))).not.toContain(
        'Staff',
      );
      expect(names(await call(t.app, user.session, { method: 'GET', url: '/portal/pages' }))).toContain(
        'Staff',
      );
    });

    it("lists the pages the creation wizard sends with the API's definition", async () => {
      const api = await createApiAs(t, publisher.session);
      const definition = (
        await call(t.app, publisher.session, { method: 'GET', url: `/apis/${api.id}` })
      ).json();
      const {
        owner: _o,
        picture_url: _p,
        state: _s,
        created_at: _c,
        updated_at: _u,
        deployed_at: _d,
        ...rest
      } = definition;
      const imported = await call(t.app, publisher.session, {
        method: 'POST',
        url: `/apis/${api.id}/import`,
        payload: {
          ...rest,
          pages: [
            { name: 'Read me', type: 'MARKDOWN', content: '# Read me', order: 0, published: false },
            { name: 'Contract', type: 'SWAGGER', content: OPENAPI, order: 1, published: false },
          ],
        },
      });
      expect(imported.statusCode, imported.body).toBe(200);

      const pages = await call(t.app, publisher.session, { method: 'GET', url: `/apis/${api.id}/pages` });
      expect(
        pages.json().map((p: { name: string; type: string; content: string }) => [p.name, p.type, p.content]),
      ).toEqual([
        ['Read me', 'MARKDOWN', '# Read me'],
        ['Contract', 'SWAGGER', OPENAPI],
      ]);
    });

    it('lists the OpenAPI page that an import with documentation creates', async () => {
      const res = await call(t.app, publisher.session, {
        method: 'POST',
        url: '/apis/import/swagger',
        payload: {
          type: 'INLINE',
          payload: JSON.stringify({
            ...JSON.parse(OPENAPI),
            servers: [{ url: 'https://echo.example.com/echo-doc' }],
          }),
          with_documentation: true,
        },
      });
      expect(res.statusCode, res.body).toBeLessThan(300);

      const pages = await call(t.app, publisher.session, {
        method: 'GET',
        url: `/apis/${res.json().id}/pages`,
      });
      expect(pages.json()).toEqual([
        expect.objectContaining({ name: 'Echo', type: 'SWAGGER', published: false }),
      ]);
    });
  });
}
