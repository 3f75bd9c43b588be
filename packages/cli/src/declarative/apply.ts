import type { ManagementClient } from './client.js';
import type { ApiChange } from './diff.js';
import type { Json } from './files.js';

/** Carries out the changes of a diff through the management API, deploying every changed API. */

const api = (id: string) => `/apis/${encodeURIComponent(id)}`;

async function closeAndDeletePlan(client: ManagementClient, apiId: string, planId: string, status?: string) {
  if (status?.toUpperCase() !== 'CLOSED')
    await client.post(`${api(apiId)}/plans/${encodeURIComponent(planId)}/_close`);
  await client.delete(`${api(apiId)}/plans/${encodeURIComponent(planId)}`);
}

async function removeApi(client: ManagementClient, change: ApiChange) {
  const current = change.current!;
  if (current.doc.state === 'STARTED') await client.post(`${api(current.id)}?action=STOP`);
  const plans = Array.isArray(current.doc.plans) ? (current.doc.plans as Json[]) : [];
  for (const plan of plans) {
    if (String(plan.status).toUpperCase() !== 'CLOSED')
      await client.post(`${api(current.id)}/plans/${encodeURIComponent(String(plan.id))}/_close`);
  }
  await client.delete(api(current.id));
}

async function changeState(client: ManagementClient, id: string, change: ApiChange) {
  if (change.state)
    await client.post(`${api(id)}?action=${change.state.after === 'STARTED' ? 'START' : 'STOP'}`);
}

async function applyOne(client: ManagementClient, change: ApiChange): Promise<void> {
  if (change.kind === '-') return removeApi(client, change);
  if (change.kind === '+') {
    const created = await client.post<{ id: string }>('/apis/import', change.body);
    await client.post(`${api(created.id)}/deploy`);
    return changeState(client, created.id, change);
  }
  const id = change.current!.id;
  const updates = change.fields.length > 0 || change.parts.some((p) => p.kind !== '-');
  if (updates) await client.post(`${api(id)}/import`, change.body);
  for (const plan of change.closes ?? [])
    await client.post(`${api(id)}/plans/${encodeURIComponent(plan)}/_close`);
  for (const part of change.parts.filter((p) => p.kind === '-')) {
    if (part.part === 'plan') await closeAndDeletePlan(client, id, part.ref!, part.status);
    else if (part.part === 'page') await client.delete(`${api(id)}/pages/${encodeURIComponent(part.ref!)}`);
    else await client.delete(`${api(id)}/metadata/${encodeURIComponent(part.ref!)}`);
  }
  if (updates || change.parts.length > 0) await client.post(`${api(id)}/deploy`);
  await changeState(client, id, change);
}

/** Applies the changes in order; the first refusal stops with the file (or API) it concerns. */
export async function applyChanges(client: ManagementClient, changes: ApiChange[]): Promise<void> {
  for (const change of changes) {
    if (change.kind === '=') continue;
    try {
      await applyOne(client, change);
    } catch (error) {
      const where = change.file ?? `API ${change.key}`;
      throw new Error(`${where}: ${(error as Error).message}`, { cause: error });
    }
  }
}
