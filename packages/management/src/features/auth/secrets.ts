import { randomBytes } from 'node:crypto';
import type { Executor } from '@portico/storage';
import { insertParameterIfAbsent } from '@portico/storage';

/** Internal parameters: never part of the settings served by `GET portal`. */
export const JWT_SECRET_PARAMETER = 'portico.internal.jwtSecret';

/**
 * The secret that signs sessions: from the configuration, else generated once and kept in the
 * database, so that every management process (and a restart) accepts the same sessions.
 */
export async function resolveJwtSecret(
  db: Executor,
  configured: string | undefined,
  now: number,
): Promise<Uint8Array> {
  const text =
    configured ??
    (await insertParameterIfAbsent(db, JWT_SECRET_PARAMETER, randomBytes(48).toString('base64url'), now));
  return new TextEncoder().encode(text);
}
