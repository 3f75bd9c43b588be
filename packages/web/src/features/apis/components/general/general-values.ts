import { z } from 'zod';
import type { ApiChanges } from '../../api/change-api';
import type { Api } from '../../api/types';
import {
  Messages,
  apiDescriptionSchema,
  apiNameSchema,
  apiVersionSchema,
  contextPathSchema,
} from '../../rules';

/** The values of the general form: its schema, read from the API, and the PUT they make. */

export const LOAD_BALANCING = ['ROUND_ROBIN', 'RANDOM', 'WEIGHTED_ROUND_ROBIN', 'WEIGHTED_RANDOM'] as const;
export const LOGGING = ['NONE', 'CLIENT', 'PROXY', 'CLIENT_PROXY'] as const;

const numberOrEmpty = z.union([z.number(), z.literal('')]);

export const generalSchema = z
  .object({
    name: apiNameSchema,
    version: apiVersionSchema,
    description: apiDescriptionSchema,
    context_path: contextPathSchema,
    labels: z.array(z.string()),
    views: z.array(z.string()),
    groups: z.array(z.string()),
    tags: z.array(z.string()),
    loadBalancing: z.array(z.string()),
    logging: z.string(),
    corsEnabled: z.boolean(),
    allowOrigin: z.array(z.string()),
    allowMethods: z.array(z.string()),
    allowHeaders: z.array(z.string()),
    exposeHeaders: z.array(z.string()),
    maxAge: numberOrEmpty,
    allowCredentials: z.boolean(),
    failoverEnabled: z.boolean(),
    maxAttempts: numberOrEmpty,
    retryTimeout: numberOrEmpty,
  })
  .superRefine((v, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (v.corsEnabled) {
      if (v.allowOrigin.length === 0) issue('allowOrigin', Messages.required);
      if (v.allowMethods.length === 0) issue('allowMethods', Messages.required);
      if (v.maxAge === '') issue('maxAge', Messages.required);
      else if (v.maxAge < -1) issue('maxAge', Messages.maxAgeMin);
    }
    if (v.failoverEnabled) {
      if (v.maxAttempts === '') issue('maxAttempts', Messages.required);
      else if (v.maxAttempts < 1) issue('maxAttempts', Messages.atLeastOne);
      if (v.retryTimeout === '') issue('retryTimeout', Messages.required);
      else if (v.retryTimeout < 1) issue('retryTimeout', Messages.atLeastOne);
    }
  });
export type GeneralValues = z.input<typeof generalSchema>;

/**
 * The endpoint groups of the API's proxy; none in the portal's view of an API that `GET apis/{id}`
 * answers to a reader without api-definition-r (a subscriber who is not a member).
 */
export const proxyGroups = (api: Api) => api.proxy.groups ?? [];

export function valuesOf(api: Api): GeneralValues {
  const cors = api.proxy.cors;
  return {
    name: api.name,
    version: api.version,
    description: api.description ?? '',
    context_path: api.context_path,
    labels: api.labels,
    views: api.views,
    groups: api.groups,
    tags: api.tags,
    loadBalancing: proxyGroups(api).map((g) => g.load_balancing.type),
    logging: api.proxy.logging?.mode ?? 'NONE',
    corsEnabled: cors?.enabled ?? false,
    allowOrigin: cors?.allowOrigin ?? ['*'],
    allowMethods: cors?.allowMethods ?? [],
    allowHeaders: cors?.allowHeaders ?? [],
    exposeHeaders: cors?.exposeHeaders ?? [],
    maxAge: cors?.maxAge ?? -1,
    allowCredentials: cors?.allowCredentials ?? false,
    failoverEnabled: !!api.proxy.failover,
    maxAttempts: api.proxy.failover?.maxAttempts ?? 1,
    retryTimeout: api.proxy.failover?.retryTimeout ?? 10000,
  };
}

/** The PUT of the general page: its fields, the proxy with its load balancing, logging, CORS, failover. */
export function changesOf(api: Api, v: GeneralValues, picture: string | null | undefined): ApiChanges {
  const num = (value: number | '', fallback: number) => (value === '' ? fallback : value);
  return {
    name: v.name.trim(),
    version: v.version.trim(),
    description: v.description.trim(),
    labels: v.labels,
    views: v.views,
    groups: v.groups,
    tags: v.tags,
    ...(picture !== undefined ? { picture } : {}),
    proxy: {
      ...api.proxy,
      ...(api.proxy.virtual_hosts?.length ? {} : { context_path: v.context_path.trim() }),
      groups: proxyGroups(api).map((group, index) => ({
        ...group,
        load_balancing: {
          type: (v.loadBalancing[index] ?? group.load_balancing.type) as (typeof LOAD_BALANCING)[number],
        },
      })),
      // Blocks the API never had stay out of its definition until they are used.
      logging:
        api.proxy.logging || v.logging !== 'NONE'
          ? { ...api.proxy.logging, mode: v.logging as (typeof LOGGING)[number] }
          : undefined,
      cors:
        v.corsEnabled || api.proxy.cors
          ? {
              enabled: v.corsEnabled,
              allowOrigin: v.allowOrigin,
              allowMethods: v.allowMethods,
              allowHeaders: v.allowHeaders,
              exposeHeaders: v.exposeHeaders,
              maxAge: num(v.maxAge, -1),
              allowCredentials: v.allowCredentials,
            }
          : undefined,
      failover: v.failoverEnabled
        ? {
            ...api.proxy.failover,
            maxAttempts: num(v.maxAttempts, 1),
            retryTimeout: num(v.retryTimeout, 10000),
            cases: api.proxy.failover?.cases ?? ['TIMEOUT'],
          }
        : undefined,
    },
  };
}
