import type { UserRow } from '@portico/storage';

/** The built-in user store's source name. */
export const PORTICO_SOURCE = 'portico';

export function displayName(user: Pick<UserRow, 'firstname' | 'lastname' | 'source_id'>): string {
  const name = [user.firstname, user.lastname].filter(Boolean).join(' ').trim();
  return name || user.source_id;
}

/** A user on the wire (never the password hash nor the picture bytes). */
export interface UserJson {
  id: string;
  username: string;
  email: string | null;
  firstname: string | null;
  lastname: string | null;
  displayName: string;
  source: string;
  sourceId: string;
  status: string;
  created_at: number;
  updated_at: number;
  lastConnectionAt: number | null;
  loginCount: number;
  hasPicture: boolean;
}

export function toUserJson(row: UserRow): UserJson {
  return {
    id: row.id,
    username: row.source_id,
    email: row.email,
    firstname: row.firstname,
    lastname: row.lastname,
    displayName: displayName(row),
    source: row.source,
    sourceId: row.source_id,
    status: row.status,
    created_at: row.created_at,
    updated_at: row.updated_at,
    lastConnectionAt: row.last_connection_at,
    loginCount: row.login_count,
    hasPicture: row.picture !== null,
  };
}

/** What an audit entry keeps of a user: no password, no picture bytes. */
export function auditedUser(row: UserRow): Record<string, unknown> {
  const { password: _password, picture, ...rest } = row;
  return { ...rest, picture: picture ? 'set' : null };
}
