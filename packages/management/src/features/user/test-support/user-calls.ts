import type { Dialect } from '@portico/storage';
import type { TestApp, TestSession } from '../../../test-support/index.js';
import { login, startTestApp } from '../../../test-support/index.js';

/** Shared setup of the HTTP tests of the current user (user/*). */

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** The bytes of a PNG picture (magic number, then filler). */
export const png = (size = 64) => Buffer.concat([PNG_MAGIC, Buffer.alloc(size - PNG_MAGIC.length, 7)]);
export const dataUrl = (type: string, bytes: Buffer) => `data:${type};base64,${bytes.toString('base64')}`;

/** A test app and the administrator's session. */
export interface UserWorld {
  t: TestApp;
  admin: TestSession;
}

export async function startUserWorld(dialect: Dialect): Promise<UserWorld> {
  const t = await startTestApp(dialect);
  return { t, admin: await login(t.app, 'admin', 'admin') };
}

/** The audit entries of an event done by the user, oldest first. */
export function auditsOfUser(world: () => UserWorld) {
  return (userId: string, event: string) =>
    world()
      .t.db.selectFrom('audits')
      .selectAll()
      .where('event', '=', event)
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .execute();
}
