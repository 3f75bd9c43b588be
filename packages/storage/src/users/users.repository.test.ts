import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialects, type TestDatabase } from '../testing.js';
import {
  deleteUser,
  endSessionsBefore,
  findUserByEmail,
  findUserById,
  findUserBySource,
  findUsersByIds,
  insertUser,
  isSessionOfUserValid,
  searchUsers,
  updateUser,
  updateUserColumns,
} from './users.repository.js';
import type { NewUserRow } from './users.table.js';

const NOW = 1_790_000_000_000;

function user(id: string, changes: Partial<NewUserRow> = {}): NewUserRow {
  return {
    id,
    source: 'portico',
    source_id: id,
    email: `${id}@example.test`,
    firstname: 'First',
    lastname: 'Last',
    status: 'ACTIVE',
    login_count: 0,
    created_at: NOW,
    updated_at: NOW,
    ...changes,
  };
}

for (const dialect of await testDialects()) {
  describe(`${dialect}: users repository`, () => {
    let t: TestDatabase;
    beforeAll(async () => {
      t = await createTestDatabase(dialect);
    });
    afterAll(async () => {
      await t.destroy();
    });
    beforeEach(async () => {
      await t.storage.db.deleteFrom('users').execute();
    });

    describe('insertUser and findUserById', () => {
      it('stores every column and reads it back with numbers for instants', async () => {
        const row = {
          id: 'u1',
          source: 'portico',
          source_id: 'jdoe',
          email: 'jdoe@example.test',
          firstname: 'John',
          lastname: 'Doe',
          password: '$2b$10$hash',
          picture: 'data:image/png;base64,AAAA',
          status: 'PENDING',
          login_count: 3,
          last_connection_at: NOW + 5,
          created_at: NOW,
          updated_at: NOW + 1,
          sessions_valid_after: NOW + 2,
          kept_session_id: 'session-1',
        };
        await insertUser(t.storage.db, row);

        expect(await findUserById(t.storage.db, 'u1')).toEqual(row);
      });

      it('leaves the optional columns null', async () => {
        await insertUser(t.storage.db, {
          id: 'u1',
          source: 'ldap',
          source_id: 'x',
          status: 'ACTIVE',
          login_count: 0,
          created_at: NOW,
          updated_at: NOW,
        });

        expect(await findUserById(t.storage.db, 'u1')).toEqual({
          id: 'u1',
          source: 'ldap',
          source_id: 'x',
          email: null,
          firstname: null,
          lastname: null,
          password: null,
          picture: null,
          status: 'ACTIVE',
          login_count: 0,
          last_connection_at: null,
          created_at: NOW,
          updated_at: NOW,
          sessions_valid_after: null,
          kept_session_id: null,
        });
      });

      it('returns undefined for an unknown id', async () => {
        await insertUser(t.storage.db, user('u1'));

        expect(await findUserById(t.storage.db, 'unknown')).toBeUndefined();
      });

      it('refuses a second user with the same source and username', async () => {
        await insertUser(t.storage.db, user('u1', { source_id: 'jdoe' }));

        await expect(insertUser(t.storage.db, user('u2', { source_id: 'jdoe' }))).rejects.toThrow();
        expect(await findUserById(t.storage.db, 'u2')).toBeUndefined();
      });

      it('accepts the same username in two sources', async () => {
        await insertUser(t.storage.db, user('u1', { source: 'portico', source_id: 'jdoe' }));
        await insertUser(t.storage.db, user('u2', { source: 'ldap', source_id: 'jdoe' }));

        expect((await findUserById(t.storage.db, 'u2'))?.source).toBe('ldap');
      });
    });

    describe('findUsersByIds', () => {
      it('returns only the users asked for, ignoring unknown ids', async () => {
        for (const id of ['u1', 'u2', 'u3']) await insertUser(t.storage.db, user(id));

        const rows = await findUsersByIds(t.storage.db, ['u3', 'u1', 'unknown']);

        expect(rows.map((r) => r.id).sort()).toEqual(['u1', 'u3']);
      });

      it('returns nothing for an empty list', async () => {
        await insertUser(t.storage.db, user('u1'));

        expect(await findUsersByIds(t.storage.db, [])).toEqual([]);
      });
    });

    describe('findUserBySource', () => {
      it('finds a user by source and username, case-insensitively', async () => {
        await insertUser(t.storage.db, user('u1', { source: 'portico', source_id: 'JDoe' }));

        expect((await findUserBySource(t.storage.db, 'portico', 'jdoe'))?.id).toBe('u1');
        expect((await findUserBySource(t.storage.db, 'portico', 'JDOE'))?.id).toBe('u1');
      });

      it('does not find a user of another source', async () => {
        await insertUser(t.storage.db, user('u1', { source: 'ldap', source_id: 'jdoe' }));

        expect(await findUserBySource(t.storage.db, 'portico', 'jdoe')).toBeUndefined();
      });

      it('does not find a user whose username only starts with the text', async () => {
        await insertUser(t.storage.db, user('u1', { source_id: 'jdoe2' }));

        expect(await findUserBySource(t.storage.db, 'portico', 'jdoe')).toBeUndefined();
      });
    });

    describe('findUserByEmail', () => {
      it('finds a user by email, case-insensitively', async () => {
        await insertUser(t.storage.db, user('u1', { email: 'John.Doe@Example.test' }));

        expect((await findUserByEmail(t.storage.db, 'john.doe@example.TEST'))?.id).toBe('u1');
      });

      it('returns undefined when no user has the email', async () => {
        await insertUser(t.storage.db, user('u1', { email: 'a@example.test' }));
        await insertUser(t.storage.db, user('u2', { email: null }));

        expect(await findUserByEmail(t.storage.db, 'b@example.test')).toBeUndefined();
      });
    });

    describe('updateUser', () => {
      it('changes the given columns only and returns 1', async () => {
        await insertUser(t.storage.db, user('u1', { firstname: 'John', lastname: 'Doe' }));

        const n = await updateUser(t.storage.db, 'u1', {
          firstname: 'Jack',
          login_count: 7,
          updated_at: NOW + 9,
        });

        expect(n).toBe(1);
        expect(await findUserById(t.storage.db, 'u1')).toMatchObject({
          firstname: 'Jack',
          lastname: 'Doe',
          login_count: 7,
          created_at: NOW,
          updated_at: NOW + 9,
        });
      });

      it('leaves the other users unchanged', async () => {
        await insertUser(t.storage.db, user('u1', { firstname: 'John' }));
        await insertUser(t.storage.db, user('u2', { firstname: 'Jane' }));

        await updateUser(t.storage.db, 'u1', { firstname: 'Jack' });

        expect((await findUserById(t.storage.db, 'u2'))?.firstname).toBe('Jane');
      });

      it('returns 0 for an unknown id', async () => {
        expect(await updateUser(t.storage.db, 'unknown', { firstname: 'Jack' })).toBe(0);
      });
    });

    describe('endSessionsBefore and isSessionOfUserValid', () => {
      it('keeps every session valid until sessions are ended', async () => {
        await insertUser(t.storage.db, user('u1'));
        const stored = (await findUserById(t.storage.db, 'u1'))!;
        expect(stored).toMatchObject({ sessions_valid_after: null, kept_session_id: null });
        expect(isSessionOfUserValid(stored, 's1', NOW - 1000)).toBe(true);
      });

      it('ends the sessions opened before the instant, but the kept one, for that user only', async () => {
        await insertUser(t.storage.db, user('u1'));
        await insertUser(t.storage.db, user('u2'));
        await endSessionsBefore(t.storage.db, 'u1', NOW + 10, 'kept');

        const u1 = (await findUserById(t.storage.db, 'u1'))!;
        expect(u1).toMatchObject({ sessions_valid_after: NOW + 10, kept_session_id: 'kept' });
        expect(isSessionOfUserValid(u1, 'old', NOW + 9)).toBe(false);
        expect(isSessionOfUserValid(u1, 'kept', NOW + 9)).toBe(true);
        expect(isSessionOfUserValid(u1, 'new', NOW + 10)).toBe(true);
        const u2 = (await findUserById(t.storage.db, 'u2'))!;
        expect(isSessionOfUserValid(u2, 'old', NOW + 9)).toBe(true);
      });
    });

    describe('updateUserColumns', () => {
      it('changes only the given columns, so that two changes made from the same read both land', async () => {
        await insertUser(t.storage.db, user('u1', { firstname: 'Old', lastname: 'Name' }));
        expect(await updateUserColumns(t.storage.db, 'u1', { firstname: 'New' }, NOW + 10)).toBe(1);
        expect(await updateUserColumns(t.storage.db, 'u1', { lastname: 'Surname' }, NOW + 5)).toBe(1);
        expect(await findUserById(t.storage.db, 'u1')).toMatchObject({
          firstname: 'New',
          lastname: 'Surname',
          updated_at: NOW + 11, // never backwards: one past the later change
        });
      });

      it('with an expected version, changes nothing once the row moved on', async () => {
        await insertUser(t.storage.db, user('u1', { firstname: 'Old' }));
        expect(await updateUserColumns(t.storage.db, 'u1', { firstname: 'First' }, NOW + 1, NOW)).toBe(1);
        expect(await updateUserColumns(t.storage.db, 'u1', { firstname: 'Stale' }, NOW + 2, NOW)).toBe(0);
        expect(await findUserById(t.storage.db, 'u1')).toMatchObject({
          firstname: 'First',
          updated_at: NOW + 1,
        });
      });
    });

    describe('deleteUser', () => {
      it('deletes the user and only that user', async () => {
        await insertUser(t.storage.db, user('u1'));
        await insertUser(t.storage.db, user('u2'));

        await deleteUser(t.storage.db, 'u1');

        expect(await findUserById(t.storage.db, 'u1')).toBeUndefined();
        expect((await findUserById(t.storage.db, 'u2'))?.id).toBe('u2');
      });
    });

    describe('searchUsers', () => {
      it('returns every user with the total when there is no text', async () => {
        for (const id of ['u1', 'u2', 'u3']) await insertUser(t.storage.db, user(id));

        const result = await searchUsers(t.storage.db, { offset: 0, limit: 10 });

        expect(result.total).toBe(3);
        expect(result.rows).toHaveLength(3);
      });

      it('matches the text in the first name, last name, email or username, case-insensitively', async () => {
        await insertUser(t.storage.db, user('u1', { firstname: 'Martha', lastname: 'A', email: 'a@x.test' }));
        await insertUser(t.storage.db, user('u2', { firstname: 'B', lastname: 'Smartt', email: 'b@x.test' }));
        await insertUser(t.storage.db, user('u3', { firstname: 'C', lastname: 'C', email: 'MART@x.test' }));
        await insertUser(
          t.storage.db,
          user('u4', { source_id: 'imart', firstname: 'D', lastname: 'D', email: null }),
        );
        await insertUser(t.storage.db, user('u5', { firstname: 'Eve', lastname: 'E', email: 'e@x.test' }));

        const result = await searchUsers(t.storage.db, { text: 'MaRt', offset: 0, limit: 10 });

        expect(result.rows.map((r) => r.id)).toEqual(['u1', 'u3', 'u4', 'u2']);
        expect(result.total).toBe(4);
      });

      it('sorts by last name, then first name, then id', async () => {
        await insertUser(t.storage.db, user('u1', { firstname: 'Bob', lastname: 'Martin' }));
        await insertUser(t.storage.db, user('u2', { firstname: 'Alice', lastname: 'Martin' }));
        await insertUser(t.storage.db, user('u3', { firstname: 'Zoe', lastname: 'Adams' }));
        await insertUser(t.storage.db, user('u0', { firstname: 'Bob', lastname: 'Martin' }));

        const result = await searchUsers(t.storage.db, { offset: 0, limit: 10 });

        expect(result.rows.map((r) => r.id)).toEqual(['u3', 'u2', 'u0', 'u1']);
      });

      it('pages with offset and limit and counts every match in the total', async () => {
        for (let i = 0; i < 7; i++) {
          await insertUser(t.storage.db, user(`u${i}`, { lastname: `Name${i}` }));
        }
        await insertUser(
          t.storage.db,
          user('other', { firstname: 'X', lastname: 'Other', email: 'z@x.test' }),
        );

        const page1 = await searchUsers(t.storage.db, { text: 'name', offset: 0, limit: 3 });
        const page3 = await searchUsers(t.storage.db, { text: 'name', offset: 6, limit: 3 });
        const beyond = await searchUsers(t.storage.db, { text: 'name', offset: 9, limit: 3 });

        expect(page1.rows.map((r) => r.id)).toEqual(['u0', 'u1', 'u2']);
        expect(page1.total).toBe(7);
        expect(page3.rows.map((r) => r.id)).toEqual(['u6']);
        expect(page3.total).toBe(7);
        expect(beyond.rows).toEqual([]);
        expect(beyond.total).toBe(7);
      });

      it('takes % in the text literally', async () => {
        await insertUser(t.storage.db, user('u1', { firstname: '100% Jo', lastname: 'A' }));
        await insertUser(t.storage.db, user('u2', { firstname: '100 Jo', lastname: 'B' }));

        const result = await searchUsers(t.storage.db, { text: '0% j', offset: 0, limit: 10 });
        const percentOnly = await searchUsers(t.storage.db, { text: '%', offset: 0, limit: 10 });

        expect(result.rows.map((r) => r.id)).toEqual(['u1']);
        expect(percentOnly.rows.map((r) => r.id)).toEqual(['u1']);
        expect(percentOnly.total).toBe(1);
      });

      it('takes _ in the text literally', async () => {
        await insertUser(
          t.storage.db,
          user('u1', { source_id: 'j_doe', firstname: 'F', lastname: 'A', email: null }),
        );
        await insertUser(
          t.storage.db,
          user('u2', { source_id: 'jxdoe', firstname: 'F', lastname: 'B', email: null }),
        );

        const result = await searchUsers(t.storage.db, { text: 'j_d', offset: 0, limit: 10 });

        expect(result.rows.map((r) => r.id)).toEqual(['u1']);
        expect(result.total).toBe(1);
      });

      it('takes a backslash in the text literally', async () => {
        await insertUser(
          t.storage.db,
          user('u1', { source_id: 'corp\\jdoe', firstname: 'F', lastname: 'A', email: null }),
        );
        await insertUser(
          t.storage.db,
          user('u2', { source_id: 'corpjdoe', firstname: 'F', lastname: 'B', email: null }),
        );

        const result = await searchUsers(t.storage.db, { text: 'p\\j', offset: 0, limit: 10 });

        expect(result.rows.map((r) => r.id)).toEqual(['u1']);
      });

      it('returns no rows and a zero total when nothing matches', async () => {
        await insertUser(t.storage.db, user('u1'));

        expect(await searchUsers(t.storage.db, { text: 'nobody', offset: 0, limit: 10 })).toEqual({
          rows: [],
          total: 0,
        });
      });
    });
  });
}
