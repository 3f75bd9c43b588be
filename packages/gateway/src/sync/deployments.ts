import { createHash } from 'node:crypto';
import type { DeployedApi } from '@portico/model';
import { DeployedApi as DeployedApiSchema } from '@portico/model';
import type { AccessState } from './access-state.js';
import { servesApi } from './sharding.js';

/** What the lifecycle events say of one API, with the sequence of the events that said it. */
export interface ApiDeployment {
  /** The payload of the latest PUBLISH_API (undefined after UNPUBLISH_API). */
  deployed: DeployedApi | undefined;
  /** Sequence of the latest PUBLISH_API or UNPUBLISH_API applied (0: none). */
  deploySeq: number;
  started: boolean;
  /** Sequence of the latest lifecycle event applied (a PUBLISH_API carries a state too). */
  stateSeq: number;
}

/** A lifecycle event, with its payload when it is a PUBLISH_API. */
export interface LifecycleEvent {
  seq: number;
  type: string;
  api_id: string | null;
  payload?: string | null;
  id?: string;
}

export type Deployments = Map<string, ApiDeployment>;

/**
 * Applies one lifecycle event. Each field takes the value of the newest event (by sequence) that sets
 * it, so events can be applied in any order and more than once: a smaller sequence committed after a
 * larger one is applied, and never undoes the newer one. Returns whether the API's state changed.
 */
export function applyEvent(
  deployments: Deployments,
  e: LifecycleEvent,
  log: { error(msg: string): void },
): boolean {
  if (!e.api_id) return false;
  const previous = deployments.get(e.api_id) ?? {
    deployed: undefined,
    deploySeq: 0,
    started: false,
    stateSeq: 0,
  };
  const next = { ...previous };
  switch (e.type) {
    case 'PUBLISH_API': {
      if (e.seq <= next.deploySeq) break;
      const parsed = DeployedApiSchema.safeParse(JSON.parse(e.payload ?? 'null'));
      next.deploySeq = e.seq;
      if (!parsed.success) {
        log.error(`PUBLISH_API event ${e.id ?? e.seq} of API ${e.api_id} has an unreadable payload`);
        break;
      }
      next.deployed = parsed.data;
      if (e.seq > next.stateSeq) {
        next.started = parsed.data.state === 'STARTED';
        next.stateSeq = e.seq;
      }
      break;
    }
    case 'UNPUBLISH_API':
      if (e.seq > next.deploySeq) {
        next.deployed = undefined;
        next.deploySeq = e.seq;
      }
      if (e.seq > next.stateSeq) {
        next.started = false;
        next.stateSeq = e.seq;
      }
      break;
    case 'START_API':
    case 'STOP_API':
      if (e.seq > next.stateSeq) {
        next.started = e.type === 'START_API';
        next.stateSeq = e.seq;
      }
      break;
    default:
      return false;
  }
  if (next.deploySeq === previous.deploySeq && next.stateSeq === previous.stateSeq) return false;
  deployments.set(e.api_id, next);
  return true;
}

/** The APIs this gateway serves: deployed, started, matching its sharding tags. */
export function servedIds(deployments: Deployments, tags: readonly string[]): Set<string> {
  const ids = new Set<string>();
  for (const [id, d] of deployments)
    if (d.deployed && d.started && servesApi(tags, d.deployed.definition.tags)) ids.add(id);
  return ids;
}

/** The highest lifecycle event sequence of what is served and known (0 when nothing). */
export function servedSeq(deployments: Deployments): number {
  let max = 0;
  for (const d of deployments.values()) max = Math.max(max, d.stateSeq, d.deploySeq);
  return max;
}

/**
 * A digest of what is served: the served APIs with the sequences of their deployment and state, their
 * keys and subscriptions. Two gateways with the same tags on the same database show the same digest.
 */
export function servedDigest(deployments: Deployments, served: Set<string>, access: AccessState): string {
  const lines: string[] = [];
  for (const id of served) {
    const d = deployments.get(id)!;
    lines.push(`a ${id} ${d.deploySeq} ${d.stateSeq}`);
  }
  for (const k of access.keys.values())
    lines.push(
      `k ${k.key} ${k.apiId} ${k.planId} ${k.subscriptionId} ${+k.revoked} ${+k.paused} ${k.expireAt}`,
    );
  for (const s of access.subscriptions.values())
    lines.push(`s ${s.id} ${s.apiId} ${s.planId} ${s.status} ${s.clientId} ${s.startingAt} ${s.endingAt}`);
  lines.sort();
  return createHash('sha256').update(lines.join('\n')).digest('hex').slice(0, 16);
}
