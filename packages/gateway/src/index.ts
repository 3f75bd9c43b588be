export {
  startGateway,
  DEFAULT_GATEWAY_OPTIONS,
  DEFAULT_SERVER_TIMEOUTS,
  httpServerTimeouts,
} from './gateway.js';
export type { GatewayOptions, RunningGateway, ServerTimeouts } from './gateway.js';
export { POLICIES, describePolicy, validatePolicyConfiguration } from './policies/registry.js';
export type { PolicyDescription } from './policies/registry.js';
export { conditionError } from './expressions/cel.js';
export {
  MetricsRegistry,
  SnapshotMetric,
  processMetrics,
  serveMetrics,
  authorised,
} from './metrics/registry.js';
export type { MetricValue } from './metrics/registry.js';
export { RESOURCE_TYPES, describeResourceType } from './resources/registry.js';
