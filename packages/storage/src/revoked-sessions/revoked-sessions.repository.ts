import type { Executor } from '../database.js';

/** Records a logout; forgets the revocations whose tokens have expired anyway. */
export async function revokeSession(db: Executor, id: string, expiresAt: number, now: number): Promise<void> {
  await db.deleteFrom('revoked_sessions').where('expires_at', '<', now).execute();
  await db
    .insertInto('revoked_sessions')
    .values({ id, expires_at: expiresAt })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

export async function isSessionRevoked(db: Executor, id: string): Promise<boolean> {
  const row = await db.selectFrom('revoked_sessions').select('id').where('id', '=', id).executeTakeFirst();
  return row !== undefined;
}
