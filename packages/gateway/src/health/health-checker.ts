import { randomUUID } from 'node:crypto';
import type { HealthCheckService } from '@portico/model';
import type { NewHealthCheckRow } from '@portico/storage';
import type { Dispatcher } from 'undici';
import type { Condition } from '../expressions/cel.js';
import { compileCondition } from '../expressions/cel.js';
import type { EndpointRuntime } from '../proxy/endpoints.js';
import { targetPath } from '../proxy/target-path.js';
import type { CompiledApi } from '../router/compiled.js';

/** Health states of the spec. */
export const UP = 3;
export const TRANSITIONALLY_UP = 2;
export const TRANSITIONALLY_DOWN = 1;
export const DOWN = 0;

/**
 * One failure moves an UP endpoint to TRANSITIONALLY_DOWN (still served), a second one to DOWN (out of
 * the balancer); one success moves a DOWN endpoint to TRANSITIONALLY_UP (still out), a second one UP.
 */
export function nextState(state: number, success: boolean): number {
  if (success)
    return state === UP || state === TRANSITIONALLY_DOWN || state === TRANSITIONALLY_UP
      ? UP
      : TRANSITIONALLY_UP;
  return state === UP ? TRANSITIONALLY_DOWN : DOWN;
}

/**
 * The check an endpoint runs: its own when it does not inherit (`inherit: false`), else the API's
 * unless the endpoint turned it off (`enabled: false`). Endpoints found by service discovery carry no
 * check of their own, so they run the API's.
 */
export function checkOf(
  own: HealthCheckService | undefined,
  apiCheck: HealthCheckService | undefined,
): HealthCheckService | undefined {
  if (!own) return apiCheck;
  if (own.inherit === false) return own;
  return own.enabled === false ? undefined : apiCheck;
}

/** Compiles the assertions of a check; one that does not parse fails every check (and is told once). */
function compileAssertions(
  config: HealthCheckService,
  warn: (text: string, error: string) => void,
): { text: string; check: Condition }[] {
  return (config.steps?.[0]?.response.assertions ?? []).map((text: string) => {
    try {
      return { text, check: compileCondition(text) };
    } catch (error) {
      warn(text, error instanceof Error ? error.message : String(error));
      return { text, check: () => false };
    }
  });
}

export const isServed = (state: number) => state === UP || state === TRANSITIONALLY_DOWN;

const UNIT_MS: Record<string, number> = {
  MILLISECONDS: 1,
  SECONDS: 1000,
  MINUTES: 60_000,
  HOURS: 3_600_000,
  DAYS: 86_400_000,
};
const MAX_BODY = 64 * 1024;

interface Job {
  key: string;
  timer: NodeJS.Timeout;
  endpoint: EndpointRuntime;
  state: number;
  running: boolean;
}

export interface HealthCheckerOptions {
  gatewayId: string;
  write(rows: NewHealthCheckRow[]): Promise<void>;
  log: { warn(msg: string): void };
}

/**
 * Runs the health checks of the served APIs on their schedule (API-level check, or the endpoint's own
 * when it does not inherit), records every check and state transition, and takes down endpoints out
 * of the load balancer until they are up again.
 */
export class HealthChecker {
  private jobs = new Map<string, Job>();
  private readonly states = new Map<string, number>();

  constructor(private readonly options: HealthCheckerOptions) {}

  /** Re-plans the checks for the APIs now served (called after each route table swap). */
  update(apis: readonly CompiledApi[]): void {
    const next = new Map<string, Job>();
    for (const api of apis) {
      const apiCheck = api.deployed.definition.services['health-check'];
      for (const group of api.groups) {
        for (const endpoint of group.endpoints) {
          const config = checkOf(endpoint.healthcheck, apiCheck);
          if (!config?.enabled || !config.trigger || !config.steps?.[0]) continue;
          const assertions = compileAssertions(config, (text, error) =>
            this.options.log.warn(
              `API ${api.id}, endpoint ${endpoint.name}: assertion ${text} ignored: ${error}`,
            ),
          );
          const key = `${api.id}\n${endpoint.name}\n${JSON.stringify(config)}\n${endpoint.target.href}`;
          const stateKey = `${api.id}\n${endpoint.name}`;
          const existing = this.jobs.get(key);
          if (existing && existing.endpoint === endpoint) {
            next.set(key, existing);
            this.jobs.delete(key);
            continue;
          }
          if (existing) {
            clearInterval(existing.timer);
            this.jobs.delete(key);
          }
          const state = this.states.get(stateKey) ?? UP;
          endpoint.up = isServed(state);
          const job: Job = {
            key,
            endpoint,
            state,
            running: false,
            timer: undefined as unknown as NodeJS.Timeout,
          };
          const interval = Math.max(config.trigger.rate * (UNIT_MS[config.trigger.unit] ?? 1000), 200);
          job.timer = setInterval(() => void this.run(api, job, config, assertions, stateKey), interval);
          job.timer.unref();
          next.set(key, job);
        }
      }
    }
    for (const job of this.jobs.values()) clearInterval(job.timer);
    this.jobs = next;
  }

  private async run(
    api: CompiledApi,
    job: Job,
    config: HealthCheckService,
    assertions: { text: string; check: Condition }[],
    stateKey: string,
  ): Promise<void> {
    if (job.running) return;
    job.running = true;
    const step = config.steps![0]!;
    const target = job.endpoint.target;
    const path = step.request.fromRoot
      ? step.request.path
      : targetPath(target, step.request.path === '/' ? '' : step.request.path, '');
    const headers = Object.fromEntries(step.request.headers.map((h) => [h.name.toLowerCase(), h.value]));
    const started = process.hrtime.bigint();
    let success = false;
    let message: string | null = null;
    let response: { status: number; headers: Record<string, unknown>; body: string } | undefined;
    try {
      const res = await job.endpoint.dispatcher.request({
        origin: target.origin,
        path,
        method: step.request.method as Dispatcher.HttpMethod,
        headers: { ...job.endpoint.headers, ...headers },
        body: step.request.method === 'GET' ? undefined : step.request.body,
        headersTimeout: job.endpoint.http.readTimeout,
        bodyTimeout: job.endpoint.http.readTimeout,
      });
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body) {
        if (size < MAX_BODY) chunks.push(chunk as Buffer);
        size += (chunk as Buffer).length;
      }
      const body = Buffer.concat(chunks).subarray(0, MAX_BODY).toString('utf8');
      response = { status: res.statusCode, headers: res.headers, body };
      const variables = { response: { status: res.statusCode, headers: res.headers, content: body } };
      const failed = assertions.find((a) => !a.check(variables));
      success = failed === undefined;
      if (failed) message = `Assertion not validated: ${failed.text}`;
    } catch (error) {
      message = error instanceof Error ? error.message : String(error);
    }
    const responseTime = Number((process.hrtime.bigint() - started) / 1_000_000n);
    const previous = job.state;
    job.state = nextState(previous, success);
    this.states.set(stateKey, job.state);
    job.endpoint.up = isServed(job.state);
    job.running = false;
    await this.options
      .write([
        {
          id: randomUUID(),
          api_id: api.id,
          endpoint: job.endpoint.name,
          gateway: this.options.gatewayId,
          timestamp: Date.now(),
          success: success ? 1 : 0,
          state: job.state,
          transition: job.state !== previous ? 1 : 0,
          response_time: responseTime,
          message,
          request: JSON.stringify({
            method: step.request.method,
            uri: `${target.origin}${path}`,
            headers,
            body: step.request.body ?? null,
          }),
          response: response ? JSON.stringify(response) : null,
        },
      ])
      .catch((error: unknown) => this.options.log.warn(`health check not recorded: ${String(error)}`));
  }

  /** The state of every checked endpoint now (metrics). */
  endpointStates(): { api: string; endpoint: string; state: number }[] {
    return [...this.jobs.values()].map((job) => {
      const [api = '', endpoint = ''] = job.key.split('\n', 2);
      return { api, endpoint, state: job.state };
    });
  }

  stop(): void {
    for (const job of this.jobs.values()) clearInterval(job.timer);
    this.jobs.clear();
  }
}
