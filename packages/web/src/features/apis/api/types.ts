import type {
  ApiVisibility,
  MetadataFormat,
  Paths,
  Property,
  Proxy,
  Resource,
  ResponseTemplates,
  Services,
} from '@portico/model';

export type { ApiVisibility, MetadataFormat };

export interface ApiOwner {
  id: string;
  username: string;
  displayName: string;
  email: string | null;
}

/** `GET apis/{id}` (console-apis.md section 3): the entity and its definition; the etag comes apart. */
export interface Api {
  id: string;
  name: string;
  version: string;
  description: string | null;
  context_path: string;
  proxy: Proxy;
  paths: Paths;
  properties: Property[];
  services: Services;
  resources: Resource[];
  path_mappings: string[];
  response_templates: ResponseTemplates;
  tags: string[];
  labels: string[];
  views: string[];
  groups: string[];
  visibility: ApiVisibility;
  state: 'STARTED' | 'STOPPED';
  lifecycle_state: string;
  owner: ApiOwner | null;
  picture_url: string;
  deployed_at: number | null;
  created_at: number;
  updated_at: number;
}

/** An API and the entity tag to send back with its next change (If-Match). */
export interface ApiWithEtag {
  api: Api;
  etag: string | undefined;
}

/** One row of `GET apis` / `POST apis/_search`. */
export interface ApiListItem {
  id: string;
  name: string;
  version: string;
  description: string | null;
  context_path: string;
  visibility: ApiVisibility;
  state: 'STARTED' | 'STOPPED';
  tags: string[];
  labels: string[];
  owner: ApiOwner | null;
  picture_url: string;
  manageable: boolean;
  deployed_at: number | null;
  created_at: number;
}

export type ApiListOrder = 'name' | '-name' | 'context_path' | '-context_path';

export type ApiEventType = 'PUBLISH_API' | 'UNPUBLISH_API' | 'START_API' | 'STOP_API';

/** The payload of a PUBLISH_API event: the API as it was deployed. */
export interface DeployedPayload {
  id: string;
  name: string;
  version: string;
  description: string | null;
  visibility: ApiVisibility;
  state?: string;
  deployed_at?: number;
  definition: Record<string, unknown>;
  plans?: unknown[];
}

export interface ApiEvent {
  id: string;
  type: ApiEventType;
  created_at: number;
  updated_at: number;
  payload: unknown;
  properties: Record<string, string>;
  user: { id: string; username: string; displayName: string } | null;
}

export interface ApiQuality {
  score: number;
  metrics_passed: Record<string, boolean>;
}

export interface ApiMember {
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

export interface ApiGroup {
  id: string;
  name: string;
  members: ApiMember[];
}

export interface ApiMetadata {
  key: string;
  name: string;
  format: MetadataFormat;
  value: string | null;
  defaultValue: string | null;
  apiId: string;
}

export interface Role {
  name: string;
  scope: string;
  description: string | null;
  default: boolean;
  system: boolean;
}

export type { UserSearchResult } from '../../../shared/ui/user-picker';

export interface NamedRef {
  id: string;
  name: string;
}
