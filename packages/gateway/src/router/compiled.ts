import type { Cors, DeployedApi, DeployedPlan, PlanSecurity, ResponseTemplates } from '@portico/model';
import type { Condition } from '../expressions/cel.js';
import type { PolicyDefinition } from '../policies/policy.js';
import type { GroupRuntime } from '../proxy/endpoints.js';
import type { PlanSecurityRuntime } from '../security/plan-security.js';

/* The shapes of a compiled API, shared by the compiler, the router, plan security and the handler. */

export interface CompiledStep {
  policy: PolicyDefinition<unknown>;
  config: unknown;
  methods: ReadonlySet<string> | undefined;
}

/** The policies of one path of a flow map (`/orders/:id`), matched as a prefix. */
export interface CompiledFlow {
  path: string;
  pattern: RegExp;
  steps: CompiledStep[];
}

export interface CompiledPlan {
  plan: DeployedPlan;
  flows: CompiledFlow[];
  /** JWT and OAuth2 plans: their security definition, parsed at deployment. */
  security: PlanSecurityRuntime | undefined;
  /** API key plans: the key header is sent on to the backend. */
  propagateApiKey: boolean;
}

/** One deployed, started API, compiled once: the request path only walks these arrays. */
export interface CompiledApi {
  id: string;
  name: string;
  deployed: DeployedApi;
  entrypoints: { host: string | undefined; path: string }[];
  stripContextPath: boolean;
  preserveHost: boolean;
  plans: Map<PlanSecurity, CompiledPlan[]>;
  flows: CompiledFlow[];
  groups: GroupRuntime[];
  failover: { maxAttempts: number; retryTimeout: number } | undefined;
  cors: Cors | undefined;
  /** `until`: the end time the condition states (`request.timestamp <= N`); no log after it. */
  logging: { mode: string; condition: Condition | undefined; until: number | undefined };
  /** The API's tracing setting: off, or its own sampling ratio (undefined: the gateway's sampler). */
  tracing: { enabled: boolean; samplingRatio: number | undefined };
  templates: ResponseTemplates;
  properties: Record<string, string>;
  /** Path mappings for analytics (`/orders/:id`), matched exactly. */
  pathMappings: { path: string; pattern: RegExp }[];
  /** Some step reads or rewrites the whole body: buffer it for this API. */
  bufferRequest: boolean;
  bufferResponse: boolean;
}
