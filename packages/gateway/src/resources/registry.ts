import { z } from 'zod';
import { OAuth2ResourceConfig } from '../security/plan-security.js';

/** A resource type an API can declare (its configuration is validated against the schema). */
export interface ResourceType {
  id: string;
  name: string;
  description: string;
  configSchema: z.ZodType;
}

export const RESOURCE_TYPES: ReadonlyMap<string, ResourceType> = new Map(
  [
    {
      id: 'oauth2',
      name: 'Generic OAuth2 authorization server',
      description:
        'An authorization server that introspects tokens for the OAuth2 plans of the API (RFC 7662).',
      configSchema: OAuth2ResourceConfig,
    },
  ].map((r) => [r.id, r]),
);

export function describeResourceType(type: ResourceType) {
  return {
    id: type.id,
    name: type.name,
    description: type.description,
    schema: z.toJSONSchema(type.configSchema, { io: 'input', unrepresentable: 'any' }),
  };
}
