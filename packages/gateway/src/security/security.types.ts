import type { Consumer } from '../policies/policy.js';
import type { CompiledPlan } from '../router/compiled.js';

export interface SecurityOptions {
  apiKeyHeader: string;
  apiKeyQueryParam: string;
}

/** The plan a request's credentials selected, and who the consumer is. */
export interface Authenticated {
  plan: CompiledPlan;
  consumer: Consumer;
}
