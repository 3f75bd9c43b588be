import { describe, expect, it } from 'vitest';
import { findMembershipsOfReference } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import type { SignedInUser, TestApp } from '../../test-support/index.js';
import { call, createGroup, errorBody, invalidFieldBody } from '../../test-support/index.js';
import { grantRoleOn, grantRoleThroughGroup, signInNewUser } from '../../test-support/index.js';
import type { ApiUsers } from '../apis/test-support/index.js';
import { APP_PRIMARY_OWNER_UNREMOVABLE, APP_TRANSFER_OWNER_ONLY } from './application-members.service.js';
import type { ApplicationCalls } from './test-support/application-calls.js';
import { useApplicationCallsApp } from './test-support/application-calls.js';

for (const dialect of await testDialects()) {
  describe(`${dialect}: application calls`, () => {
    let t: TestApp, u: ApiUsers, dev: SignedInUser, colleague: SignedInUser;
    let createApp: ApplicationCalls['createApp'];
    useApplicationCallsApp(dialect, (calls) => ({ t, u, dev, colleague, createApp } = calls));

    describe('members of an application', () => {
      it('lists direct and inherited members, adds, changes, removes, and transfers the ownership', async () => {
        const group = await createGroup(t.db);
        const app = await createApp(dev.session, { groups: [group.id] });
        const inherited = await signInNewUser(t.app, t.db);
        await grantRoleThroughGroup(t.db, inherited.user.id, group.id, 'APPLICATION', 'USER');
        const base = `/applications/${app.id}/members`;

        const added = await call(t.app, dev.session, {
          method: 'POST',
          url: base,
          payload: { id: colleague.user.id, role: 'USER' },
        });
        expect(added.statusCode, added.body).toBe(201);
        expect(added.json()).toMatchObject({ id: colleague.user.id, role: 'USER' });
        const list = await call(t.app, dev.session, { method: 'GET', url: base });
        expect(
          list
            .json()
            .map((m: { id: string; role: string; group: unknown }) => [m.id, m.role, m.group !== null]),
        ).toEqual([
          [dev.user.id, 'PRIMARY_OWNER', false],
          [colleague.user.id, 'USER', false],
          [inherited.user.id, 'USER', true],
        ]);

        const refusedRemoval = await call(t.app, dev.session, {
          method: 'DELETE',
          url: `${base}?user=${dev.user.id}`,
        });
        expect(refusedRemoval.json()).toEqual(errorBody(400, APP_PRIMARY_OWNER_UNREMOVABLE, 'user'));

        const transfer = await call(t.app, dev.session, {
          method: 'POST',
          url: `${base}/transfer_ownership`,
          payload: { id: colleague.user.id, role: 'OWNER' },
        });
        expect(transfer.statusCode, transfer.body).toBe(204);
        const roles = Object.fromEntries(
          (await findMembershipsOfReference(t.db, 'APPLICATION', app.id)).map((m) => [
            m.member_id,
            m.role_name,
          ]),
        );
        expect(roles).toEqual({ [dev.user.id]: 'OWNER', [colleague.user.id]: 'PRIMARY_OWNER' });

        const again = await call(t.app, dev.session, {
          method: 'POST',
          url: `${base}/transfer_ownership`,
          payload: { id: dev.user.id },
        });
        expect(again.json()).toEqual(errorBody(403, APP_TRANSFER_OWNER_ONLY));

        const removed = await call(t.app, colleague.session, {
          method: 'DELETE',
          url: `${base}?user=${dev.user.id}`,
        });
        expect(removed.statusCode).toBe(200);
      });

      it('refuses a missing role or user and a system role, naming the field, and stores nothing', async () => {
        const app = await createApp(dev.session);
        const base = `/applications/${app.id}/members`;
        expect(
          (
            await call(t.app, dev.session, { method: 'POST', url: base, payload: { id: colleague.user.id } })
          ).json(),
        ).toEqual(invalidFieldBody('role', 'is required'));
        expect(
          (await call(t.app, dev.session, { method: 'POST', url: base, payload: { role: 'USER' } })).json(),
        ).toEqual(invalidFieldBody('id', 'A user is required.'));
        expect(
          (
            await call(t.app, dev.session, {
              method: 'POST',
              url: base,
              payload: { id: colleague.user.id, role: 'PRIMARY_OWNER' },
            })
          ).json().field,
        ).toBe('role');
        expect(
          (await findMembershipsOfReference(t.db, 'APPLICATION', app.id)).map((m) => m.member_id),
        ).toEqual([dev.user.id]);
      });

      it('refuses users without the member permissions (403)', async () => {
        const app = await createApp(dev.session);
        await grantRoleOn(t.db, colleague.user.id, 'APPLICATION', app.id, 'USER');
        const base = `/applications/${app.id}/members`;
        expect((await call(t.app, u.outsider.session, { method: 'GET', url: base })).json()).toEqual(
          errorBody(403, 'You do not have the permission application-member-r'),
        );
        expect(
          (
            await call(t.app, colleague.session, {
              method: 'POST',
              url: base,
              payload: { id: u.outsider.user.id, role: 'USER' },
            })
          ).json(),
        ).toEqual(
          errorBody(403, 'You do not have the permission application-member-c or application-member-u'),
        );
        expect(
          (
            await call(t.app, colleague.session, { method: 'DELETE', url: `${base}?user=${dev.user.id}` })
          ).json(),
        ).toEqual(errorBody(403, 'You do not have the permission application-member-d'));
        expect(
          (
            await call(t.app, u.outsider.session, {
              method: 'POST',
              url: `${base}/transfer_ownership`,
              payload: { id: u.outsider.user.id },
            })
          ).statusCode,
        ).toBe(403);
        expect(
          (await findMembershipsOfReference(t.db, 'APPLICATION', app.id)).map((m) => m.role_name).sort(),
        ).toEqual(['PRIMARY_OWNER', 'USER']);
      });
    });
  });
}
