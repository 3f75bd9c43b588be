import type {
  ApiDefinition,
  ApiVisibility,
  Paths,
  Property,
  Proxy,
  Resource,
  ResponseTemplates,
  Services,
} from '@portico/model';
import type { ApiListOrder } from '@portico/storage';

/** Checks the entity tag of the API about to change (the route's If-Match); throws 412 when stale. */
export type Precondition = (currentEtag: string) => void;

/** Plans the gateway serves, and those that keep an API from being deleted. */
export const ACTIVE_PLAN_STATUSES = ['PUBLISHED', 'DEPRECATED'];
/** Subscriptions that keep an API from being deleted. */
export const ACTIVE_SUBSCRIPTION_STATUSES = ['ACCEPTED', 'PENDING', 'PAUSED'];

/** `PUT apis/{id}`: every field optional; an absent field keeps its value. */
export interface ApiChanges {
  name?: string | undefined;
  version?: string | undefined;
  description?: string | undefined;
  visibility?: ApiVisibility | undefined;
  lifecycle_state?: string | undefined;
  labels?: string[] | undefined;
  views?: string[] | undefined;
  groups?: string[] | undefined;
  tags?: string[] | undefined;
  /** A data URL; null removes the picture. */
  picture?: string | null | undefined;
  proxy?: Proxy | undefined;
  paths?: Paths | undefined;
  properties?: Property[] | undefined;
  services?: Services | undefined;
  resources?: Resource[] | undefined;
  path_mappings?: string[] | undefined;
  response_templates?: ResponseTemplates | undefined;
}

/** A new API as the creation and the import give it. */
export interface ApiToInsert {
  id: string;
  definition: ApiDefinition;
  description: string | null;
  visibility: ApiVisibility;
  state?: 'STARTED' | 'STOPPED';
  lifecycle_state?: string;
  labels?: string[];
  views?: string[];
  groups?: string[];
  picture?: string | null;
}

export interface ApiListQuery {
  view?: string | undefined;
  group?: string | undefined;
  top?: boolean | undefined;
  text?: string | undefined;
  order?: ApiListOrder | undefined;
}
