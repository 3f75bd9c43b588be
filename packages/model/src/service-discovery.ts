import { z } from 'zod';

/** The id of the Consul provider, as Gravitee's consul plugin named it. */
export const CONSUL_DISCOVERY = 'consul-service-discovery';

/** Configuration of the Consul provider (the fields of Gravitee's consul service-discovery plugin). */
export const ConsulDiscoveryConfiguration = z.object({
  url: z
    .string()
    .min(1, 'The Consul URL is required.')
    .refine((u) => /^https?:\/\/[^\s/]+/.test(u), 'The Consul URL must be an http or https URL.'),
  service: z.string().min(1, 'The service name is required.'),
  dc: z.string().optional(),
  acl: z.string().optional(),
  trustStoreType: z.enum(['', 'PEM']).optional(),
  trustStoreBase64: z.string().optional(),
  /** How often the health API is read, in milliseconds (default 5000, at least 500). */
  pollIntervalMs: z.number().int().min(500).optional(),
});
export type ConsulDiscoveryConfiguration = z.infer<typeof ConsulDiscoveryConfiguration>;

/** The configuration form of the Consul provider (JSON schema, for the console's schema form). */
export const CONSUL_DISCOVERY_SCHEMA = {
  type: 'object',
  id: 'urn:jsonschema:io:gravitee:discovery:consul:configuration:ConsulServiceDiscoveryConfiguration',
  properties: {
    url: {
      title: 'Consul.io URL',
      description: 'The URL of the Consul agent (http://localhost:8500)',
      type: 'string',
      default: 'http://localhost:8500',
    },
    service: { title: 'Service', description: 'The name of the service to look up', type: 'string' },
    dc: {
      title: 'DC',
      description: 'The datacenter to query (default: the agent datacenter)',
      type: 'string',
    },
    acl: { title: 'ACL', description: 'The ACL token sent as X-Consul-Token', type: 'string' },
    trustStoreType: {
      title: 'Truststore type',
      description: 'The type of the trust store of an https Consul URL',
      type: 'string',
      enum: ['', 'PEM'],
      default: '',
    },
    trustStoreBase64: {
      title: 'Truststore',
      description: 'The PEM certificates, base64 encoded',
      type: 'string',
    },
    pollIntervalMs: {
      title: 'Poll interval (ms)',
      description: 'How often the gateway reads the health of the service',
      type: 'integer',
      minimum: 500,
      default: 5000,
    },
  },
  required: ['url', 'service'],
} as const;

/** The service-discovery providers: id, name, description, configuration check and form. */
export const SERVICE_DISCOVERY_PROVIDERS = [
  {
    id: CONSUL_DISCOVERY,
    name: 'Consul.io Service Discovery',
    description: 'Reads the passing instances of a Consul service as the endpoints of a group',
    version: '1.0.0',
    configuration: ConsulDiscoveryConfiguration,
    schema: CONSUL_DISCOVERY_SCHEMA,
  },
] as const;
