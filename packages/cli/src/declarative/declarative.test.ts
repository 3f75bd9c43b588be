import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { testDialects } from '@portico/storage/testing';
import type { SignedInUser, TestApp } from '../../../management/src/test-support/index.js';
import { call, createUser, signInNewUser, startTestApp } from '../../../management/src/test-support/index.js';
import { runDeclarative } from './command.js';

type Json = Record<string, unknown>;

const dialects = await testDialects();

/** An API definition file as an operator writes it: no ids, the parts by name. */
const ordersFile = (contextPath: string, description = 'Orders of the shop') => ({
  name: 'Orders',
  version: '1.0',
  description,
  visibility: 'PUBLIC',
  state: 'STARTED',
  proxy: {
    context_path: contextPath,
    groups: [{ name: 'default', endpoints: [{ name: 'backend', target: 'http://127.0.0.1:9/orders' }] }],
  },
  plans: [
    { name: 'Free', security: 'KEY_LESS', status: 'PUBLISHED', characteristics: ['open'] },
    { name: 'Gold', security: 'API_KEY', status: 'STAGING', validation: 'MANUAL' },
  ],
  pages: [{ name: 'Guide', type: 'MARKDOWN', content: '# Orders', published: true }],
  metadata: [{ key: 'team', name: 'team', format: 'STRING', value: 'shop' }],
});

const stockFile = (contextPath: string) => ({
  name: 'Stock',
  version: '2',
  proxy: {
    context_path: contextPath,
    groups: [{ name: 'default', endpoints: [{ name: 'backend', target: 'http://127.0.0.1:9/stock' }] }],
  },
});

describe.each(dialects)('portico apply and dump (%s)', (dialect) => {
  let t: TestApp;
  let admin: SignedInUser;
  let url: string;
  const folders: string[] = [];
  const folder = () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'portico-apply-'));
    folders.push(dir);
    return dir;
  };
  const suffix = dialect.slice(0, 2);
  const ordersPath = `/orders-${suffix}`;
  const stockPath = `/stock-${suffix}`;
  const definitions = folder();
  const write = (name: string, doc: unknown) => writeFileSync(path.join(definitions, name), stringify(doc));

  const run = async (command: 'apply' | 'dump', ...args: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runDeclarative(
      command,
      [...args, '--url', url],
      { PORTICO_TOKEN: admin.session.token },
      { out: (s) => out.push(s), err: (s) => err.push(s) },
    );
    return { code, out: out.join('\n'), err: err.join('\n') };
  };
  const get = async <T = Json>(u: string) => {
    const res = await call(t.app, admin.session, { method: 'GET', url: u });
    return { status: res.statusCode, body: res.json<T>() };
  };
  const apis = async () => (await get<Json[]>('/apis')).body;
  const apiAt = async (contextPath: string) => (await apis()).find((a) => a.context_path === contextPath);
  const plansOf = async (id: string) =>
    (await get<Json[]>(`/apis/${id}/plans?status=staging,published,deprecated,closed`)).body;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/management`;
    admin = await signInNewUser(t.app, t.db, { management: 'ADMIN' });
  });

  afterAll(async () => {
    await t?.close();
    for (const dir of folders) rmSync(dir, { recursive: true, force: true });
  });

  it('creates the APIs of a folder with their plans, pages and metadata, deploys and starts them', async () => {
    const member = await createUser(t.db, { username: `member-${suffix}` });
    write('orders.yaml', {
      ...ordersFile(ordersPath),
      members: [{ source: 'portico', sourceId: member.source_id, role: 'USER' }],
    });
    mkdirSync(path.join(definitions, 'more'));
    writeFileSync(path.join(definitions, 'more', 'stock.json'), JSON.stringify(stockFile(stockPath)));
    const res = await run('apply', definitions);
    expect(res.err).toBe('');
    expect(res.code).toBe(0);
    expect(res.out).toContain(`+ create API "Orders" ${ordersPath}`);
    expect(res.out).toContain('+ plan "Gold"');
    expect(res.out).toContain('2 to create, 0 to update, 0 to delete');

    const orders = (await apiAt(ordersPath))!;
    expect(orders).toMatchObject({ name: 'Orders', state: 'STARTED', visibility: 'PUBLIC' });
    const full = (await get(`/apis/${String(orders.id)}`)).body;
    expect(full.deployed_at).toEqual(expect.any(Number));
    const plans = await plansOf(String(orders.id));
    expect(plans.map((p) => `${String(p.name)}:${String(p.status)}`).sort()).toEqual([
      'Free:PUBLISHED',
      'Gold:STAGING',
    ]);
    const exported = (await get(`/apis/${String(orders.id)}/export`)).body;
    expect((exported.pages as Json[]).map((p) => p.name)).toEqual(['Guide']);
    expect(exported.metadata).toEqual([{ key: 'team', name: 'team', format: 'STRING', value: 'shop' }]);
    expect((await apiAt(stockPath))?.state).toBe('STOPPED');
    const members = (await get<Json[]>(`/apis/${String(orders.id)}/members`)).body;
    expect(members.map((m) => m.id)).toContain(member.id);
  });

  it('updates in place: the API, plan and page ids stay, only the changed fields are listed, then deploys', async () => {
    const before = (await apiAt(ordersPath))!;
    const id = String(before.id);
    const plansBefore = await plansOf(id);
    const deployedBefore = (await get(`/apis/${id}`)).body.deployed_at as number;
    const pageIds = async () => ((await get(`/apis/${id}/export`)).body.pages as Json[]).map((p) => p.id);
    const pagesBefore = await pageIds();
    const changed = ordersFile(ordersPath, 'All the orders');
    changed.plans[0]!.characteristics = ['open', 'fast'];
    changed.metadata.push({ key: 'owner', name: 'owner', format: 'MAIL', value: 'shop@example.com' });
    write('orders.yaml', changed);

    const res = await run('apply', definitions);
    expect(res.code).toBe(0);
    expect(res.out).toContain(`~ update API "Orders" ${ordersPath}`);
    expect(res.out).toContain('~ description: "Orders of the shop" -> "All the orders"');
    expect(res.out).toContain('~ plan "Free"');
    expect(res.out).toContain('+ metadata "owner"');
    expect(res.out).not.toContain('Gold');
    expect(res.out).not.toContain('Stock');
    expect(res.out).toContain('0 to create, 1 to update, 0 to delete, 1 unchanged');

    const after = (await get(`/apis/${id}`)).body;
    expect(after.description).toBe('All the orders');
    expect(after.deployed_at as number).toBeGreaterThan(deployedBefore);
    const plansAfter = await plansOf(id);
    expect(plansAfter.map((p) => p.id).sort()).toEqual(plansBefore.map((p) => p.id).sort());
    expect(plansAfter.find((p) => p.name === 'Free')?.characteristics).toEqual(['open', 'fast']);
    expect(await pageIds()).toEqual(pagesBefore);
    expect((await apis()).length).toBe(2);

    // The same files again: nothing to do.
    const again = await run('apply', definitions);
    expect(again.out).toContain('No changes (2 APIs up to date).');
    expect((await get(`/apis/${id}`)).body.updated_at).toBe(after.updated_at);
  });

  it('--dry-run prints the diff and changes nothing', async () => {
    const id = String((await apiAt(ordersPath))!.id);
    const before = (await get(`/apis/${id}/export`)).body;
    write('orders.yaml', {
      ...ordersFile(ordersPath, 'All the orders'),
      name: 'Orders v2',
      state: 'STOPPED',
    });
    const res = await run('apply', definitions, '--dry-run');
    expect(res.code).toBe(0);
    expect(res.out).toContain('~ name: "Orders" -> "Orders v2"');
    expect(res.out).toContain('~ state: STARTED -> STOPPED');
    expect((await get(`/apis/${id}/export`)).body).toEqual(before);
    expect((await apiAt(ordersPath))?.state).toBe('STARTED');
  });

  it('refuses an invalid file by name and field before changing anything', async () => {
    const id = String((await apiAt(ordersPath))!.id);
    const before = (await get(`/apis/${id}/export`)).body;
    const bad = { ...stockFile('/bad'), plans: [{ name: 'Broken', security: 'NOPE' }] };
    write('zz-bad.yaml', bad);
    const res = await run('apply', definitions);
    expect(res.code).toBe(1);
    expect(res.err).toContain(`${path.join(definitions, 'zz-bad.yaml')}: plans.0.security`);
    expect((await get(`/apis/${id}/export`)).body).toEqual(before);
    expect((await apis()).length).toBe(2);

    writeFileSync(path.join(definitions, 'zz-bad.yaml'), 'name: [unclosed');
    const yaml = await run('apply', definitions);
    expect(yaml.code).toBe(1);
    expect(yaml.err).toContain('zz-bad.yaml: not valid YAML');
    write('zz-bad.yaml', { ...stockFile(ordersPath), name: 'Twin' });
    const twin = await run('apply', definitions);
    expect(twin.err).toMatch(
      /zz-bad\.yaml: proxy\.context_path: .* is also the context path of .*orders\.yaml/,
    );
    write('zz-bad.yaml', stockFile(`${ordersPath}/sub`));
    const overlap = await run('apply', definitions);
    expect(overlap.code).toBe(1);
    expect(overlap.err).toMatch(
      /zz-bad\.yaml: proxy\.context_path: .*\/sub overlaps the context path of .*orders\.yaml/,
    );
    rmSync(path.join(definitions, 'zz-bad.yaml'));

    const err: string[] = [];
    const stale = await runDeclarative(
      'apply',
      [definitions, '--url', url, '--token', 'stale'],
      {},
      {
        out: (s) => err.push(s),
        err: (s) => err.push(s),
      },
    );
    expect(stale).toBe(1);
    expect(err.join('\n')).toBe(
      'portico apply: the management API refused the token (expired or wrong): sign in again',
    );
    expect((await get(`/apis/${id}/export`)).body).toEqual(before);
  });

  it('--prune deletes the APIs and parts absent from the files', async () => {
    const id = String((await apiAt(ordersPath))!.id);
    const stockId = String((await apiAt(stockPath))!.id);
    const file = ordersFile(ordersPath, 'All the orders');
    // Closing a plan in a file closes it as the console does (closing instant, subscriptions ended).
    file.plans[1]!.status = 'CLOSED';
    write('orders.yaml', file);
    const closed = await run('apply', definitions);
    expect(closed.out).toContain('~ plan "Gold"\n        ~ status: "STAGING" -> "CLOSED"');
    const gold = (await plansOf(id)).find((p) => p.name === 'Gold')!;
    expect(gold).toMatchObject({ status: 'CLOSED', closed_at: expect.any(Number) });
    file.plans = file.plans.filter((p) => p.name !== 'Gold');
    write('orders.yaml', file);
    rmSync(path.join(definitions, 'more'), { recursive: true });

    const res = await run('apply', definitions, '--prune');
    expect(res.code).toBe(0);
    expect(res.out).toContain(`- delete API "Stock" ${stockPath}`);
    expect(res.out).toContain('- plan "Gold"');
    expect(res.out).toContain('- metadata "owner"');
    expect((await get(`/apis/${stockId}`)).status).toBe(404);
    expect((await plansOf(id)).map((p) => p.name)).toEqual(['Free']);
    expect((await apiAt(ordersPath))?.state).toBe('STARTED');
  });

  it('dump writes files that apply finds up to date, and a second dump is identical', async () => {
    const first = folder();
    // Basic credentials instead of the token.
    const out: string[] = [];
    const code = await runDeclarative(
      'dump',
      [first, '--url', url, '--username', admin.user.source_id, '--password', 'password'],
      {},
      { out: (s) => out.push(s), err: (s) => out.push(s) },
    );
    expect(out.join('\n')).toContain('Wrote 1 API to');
    expect(code).toBe(0);
    const written = readdirSync(first);
    expect(written).toEqual([`orders-${suffix}.yaml`]);
    const text = readFileSync(path.join(first, written[0]!), 'utf8');
    expect(text).not.toMatch(/updated_at|created_at|deployed_at|published_at/);
    expect(text).toMatch(/^id: /);

    const res = await run('apply', first, '--prune');
    expect(res.out).toBe('No changes (1 API up to date).');
    const second = folder();
    expect((await run('dump', second)).code).toBe(0);
    expect(readFileSync(path.join(second, written[0]!), 'utf8')).toBe(text);
  });

  it('a dump applied on an emptied platform brings the APIs back with their ids', async () => {
    const before = (await apiAt(ordersPath))!;
    const dumped = folder();
    expect((await run('dump', dumped)).code).toBe(0);
    const emptied = await run('apply', folder(), '--prune');
    expect(emptied.out).toContain(`- delete API "Orders" ${ordersPath}`);
    expect(await apis()).toEqual([]);

    const res = await run('apply', dumped);
    expect(res.out).toContain('1 to create');
    const after = (await apiAt(ordersPath))!;
    expect(after.id).toBe(before.id);
    expect(after.state).toBe('STARTED');
    expect((await run('apply', dumped)).out).toBe('No changes (1 API up to date).');

    // A dumped file names its API by id: its context path may change, the API stays the same.
    const [name] = readdirSync(dumped);
    const file = path.join(dumped, name!);
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace(`context_path: ${ordersPath}`, `context_path: ${ordersPath}-moved`),
    );
    const moved = await run('apply', dumped, '--prune');
    expect(moved.out).toContain(`~ proxy.context_path: "${ordersPath}" -> "${ordersPath}-moved"`);
    expect(moved.out).toContain('0 to create, 1 to update, 0 to delete');
    expect((await apis()).map((a) => [a.id, a.context_path])).toEqual([[before.id, `${ordersPath}-moved`]]);
  });
});
