export {
  startGateway,
  DEFAULT_GATEWAY_OPTIONS,
  DEFAULT_SERVER_TIMEOUTS,
  httpServerTimeouts,
} from './gateway.js';
export type { GatewayOptions, RunningGateway, ServerTimeouts } from './gateway.js';
export { DEFAULT_DRAIN, HttpDrain } from './status/drain.js';
export type { DrainPeriod } from './status/drain.js';
export { DEFAULT_GATEWAY_STATUS_PORT, Readiness } from './status/status-server.js';
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
export { tracingSettings, parseKeyValues, SAMPLERS } from './tracing/settings.js';
export type { OtelVariables, TracingSettings, SamplerName } from './tracing/settings.js';
export { startTracingProvider } from './tracing/provider.js';
export type { TracingProvider, TracingOptions } from './tracing/provider.js';
