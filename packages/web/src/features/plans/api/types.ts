import type { Paths, PlanSecurity, PlanStatus } from '@portico/model';
import type { JsonSchema } from '../../../shared/ui/json-schema-form';

export type { PlanSecurity, PlanStatus };
export type PlanValidation = 'AUTO' | 'MANUAL';

/** A plan as `GET apis/{id}/plans` answers it (console-apis.md section 3). */
export interface Plan {
  id: string;
  api: string;
  name: string;
  description: string;
  validation: PlanValidation;
  security: PlanSecurity;
  /** JSON text of the security configuration. */
  securityDefinition: string | null;
  status: PlanStatus;
  order: number;
  characteristics: string[];
  type: 'API' | 'CATALOG';
  paths: Paths;
  comment_required: boolean;
  comment_message: string | null;
  excluded_groups: string[];
  tags: string[];
  created_at: number;
  updated_at: number;
  published_at: number | null;
  closed_at: number | null;
}

/** What `POST apis/{id}/plans` and `PUT apis/{id}/plans/{planId}` take. */
export interface PlanInput {
  name: string;
  description: string;
  security: PlanSecurity;
  validation: PlanValidation;
  securityDefinition: string | null;
  characteristics: string[];
  paths: Paths;
  comment_required: boolean;
  comment_message: string | null;
  excluded_groups: string[];
}

/** A policy of the gateway with its configuration's JSON schema (`GET policies?expandSchema=true`). */
export interface PolicyDescription {
  id: string;
  name: string;
  description: string;
  schema: JsonSchema;
}

export interface NamedGroup {
  id: string;
  name: string;
}
