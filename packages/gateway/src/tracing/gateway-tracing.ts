import type { TracingProvider } from './provider.js';
import { startTracingProvider } from './provider.js';
import type { TracingSettings } from './settings.js';

/**
 * The gateway's tracing when settings are given (undefined: off, nothing of it runs on a call).
 */
export function startGatewayTracing(
  settings: TracingSettings | undefined,
  version: string,
  log: { info(msg: string): void },
): TracingProvider | undefined {
  if (!settings) return undefined;
  const provider = startTracingProvider(settings, version, settings.batch);
  log.info(`tracing: spans go to ${settings.url} (sampler ${settings.sampler}, ratio ${settings.ratio})`);
  return provider;
}
