import {
  ApiKeySecurityDefinition,
  JwtSecurityDefinition,
  OAuth2SecurityDefinition,
  PLAN_SECURITY_TYPES,
} from '@portico/model';
import { z } from 'zod';
import type { JsonSchema } from '../../../../shared/ui/json-schema-form';
import type { PlanSecurity } from '../../api/types';

export const SECURITY_TYPES: readonly PlanSecurity[] = PLAN_SECURITY_TYPES;

const schemas = new Map<PlanSecurity, JsonSchema>();

/**
 * The JSON schema of a security type's configuration (the plan's `securityDefinition`), generated from
 * the zod schema the server checks it with; key-less plans have none. The management API serves the
 * policies' schemas (`GET policies`) but not these, so they come from the shared model.
 */
export function securitySchema(security: PlanSecurity | null): JsonSchema | undefined {
  if (!security || security === 'KEY_LESS') return undefined;
  let schema = schemas.get(security);
  if (!schema) {
    const source =
      security === 'JWT'
        ? JwtSecurityDefinition
        : security === 'OAUTH2'
          ? OAuth2SecurityDefinition
          : ApiKeySecurityDefinition;
    schema = z.toJSONSchema(source, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
    schemas.set(security, schema);
  }
  return schema;
}
