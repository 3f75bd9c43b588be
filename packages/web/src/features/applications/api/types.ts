import type { ApplicationType, GrantType } from '@portico/model';

export type { ApplicationType, GrantType };

/** An application (console-applications-and-settings.md section 3). */
export interface Application {
  id: string;
  name: string;
  description: string;
  type: ApplicationType;
  status: string;
  groups: string[];
  settings: {
    app?: { type: string | null; client_id: string | null };
    oauth?: {
      client_id: string;
      client_secret: string;
      application_type: string;
      grant_types: GrantType[];
      redirect_uris: string[];
      response_types: string[];
    };
  };
  owner: { id: string; displayName: string; email: string | null } | null;
  created_at: number;
  updated_at: number;
}

/** What `POST applications/` and `PUT applications/{id}` take. */
export interface ApplicationInput {
  name: string;
  description: string;
  type?: ApplicationType;
  groups?: string[];
  settings: {
    app?: { type: string | null; client_id: string | null };
    oauth?: { application_type?: string; grant_types: GrantType[]; redirect_uris: string[] };
  };
}

/** A member of an application: direct (group null) or through one of its groups. */
export interface ApplicationMember {
  id: string;
  username: string;
  displayName: string;
  email: string | null;
  role: string;
  type: 'USER';
  group: { id: string; name: string } | null;
  created_at: number;
  updated_at: number;
}

export interface Role {
  name: string;
  scope: string;
  description: string | null;
  default: boolean;
  system: boolean;
}
