import { z } from 'zod';
import { ApiDefinition } from './api-definition.js';
import { DeployedPlan } from './plan.js';

/** Event types of the deployment history and of the gateways' sync. */
export const API_EVENT_TYPES = ['PUBLISH_API', 'UNPUBLISH_API', 'START_API', 'STOP_API'] as const;
export type ApiEventType = (typeof API_EVENT_TYPES)[number];

/**
 * The payload of a PUBLISH_API event: the API as deployed, with its definition and the plans that
 * were published or deprecated at that moment. Gateways serve exactly this; rollback restores it.
 */
export const DeployedApi = z.object({
  id: z.string(),
  name: z.string(),
  version: z.string(),
  description: z.string().nullable().default(null),
  visibility: z.enum(['PUBLIC', 'PRIVATE']).default('PRIVATE'),
  /** STARTED or STOPPED at deployment; later START_API / STOP_API events change it. */
  state: z.enum(['STARTED', 'STOPPED']),
  deployed_at: z.number(),
  definition: ApiDefinition,
  plans: z.array(DeployedPlan).default([]),
});
export type DeployedApi = z.infer<typeof DeployedApi>;
