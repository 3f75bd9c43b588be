import { GatewayTracer } from './gateway-span.js';
import type { TracingProvider } from './provider.js';
import { boundedShutdown, tracingPipeline } from './provider.js';
import type { TracingSettings } from './settings.js';

/**
 * The gateway's tracing when settings are given (undefined: off, nothing of it runs on a call): the
 * gateway's own spans (`GatewayTracer`) on the same sampler, resource and export as the SDK's provider.
 */
export function startGatewayTracing(
  settings: TracingSettings | undefined,
  version: string,
  log: { info(msg: string): void },
): TracingProvider<GatewayTracer> | undefined {
  if (!settings) return undefined;
  const pipeline = tracingPipeline(settings, version, settings.batch);
  const tracer = new GatewayTracer(
    pipeline.sampler,
    pipeline.resource,
    { name: 'portico', version },
    pipeline.processor,
  );
  log.info(`tracing: spans go to ${settings.url} (sampler ${settings.sampler}, ratio ${settings.ratio})`);
  return {
    tracer,
    get dropped() {
      return pipeline.dropped;
    },
    forceFlush: () => pipeline.processor.forceFlush(),
    shutdown: () => boundedShutdown(() => pipeline.processor.shutdown()),
  };
}
