import type { ApplicationRow, UserRow } from '@portico/storage';
import { displayName } from '../users/users.mapper.js';

/** `settings` of an application (console-applications-and-settings.md section 3). */
export interface ApplicationSettingsJson {
  app?: { type: string | null; client_id: string | null };
  oauth?: {
    client_id: string;
    client_secret: string;
    application_type: string;
    grant_types: string[];
    redirect_uris: string[];
    response_types: string[];
  };
}

export function settingsOf(row: ApplicationRow): ApplicationSettingsJson {
  try {
    return JSON.parse(row.settings) as ApplicationSettingsJson;
  } catch {
    return {};
  }
}

const list = (json: string): string[] => {
  try {
    const value = JSON.parse(json) as unknown;
    return Array.isArray(value) ? (value as string[]) : [];
  } catch {
    return [];
  }
};

/** An application on the wire, with its primary owner. */
export function toApplicationJson(row: ApplicationRow, owner: UserRow | undefined) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    type: row.type,
    status: row.status,
    groups: list(row.groups),
    settings: settingsOf(row),
    owner: owner ? { id: owner.id, displayName: displayName(owner), email: owner.email } : null,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
export type ApplicationJson = ReturnType<typeof toApplicationJson>;

/**
 * An application found by name by someone who is not its member (to subscribe it to an API): what
 * names it, never its settings, groups nor its owner's email.
 */
export function toFoundApplicationJson(row: ApplicationRow, owner: UserRow | undefined) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    type: row.type,
    status: row.status,
    owner: owner ? { id: owner.id, displayName: displayName(owner) } : null,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** What an audit entry keeps of an application: the client secret masked. */
export function auditedApplication(row: ApplicationRow): Record<string, unknown> {
  const settings = settingsOf(row);
  const { picture, ...rest } = row;
  return {
    ...rest,
    groups: list(row.groups),
    picture: picture ? 'set' : null,
    settings: settings.oauth
      ? { ...settings, oauth: { ...settings.oauth, client_secret: '********' } }
      : settings,
  };
}
