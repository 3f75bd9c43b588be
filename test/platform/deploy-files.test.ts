import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { EventBus } from '@portico/storage';
import { createTestDatabase, type TestDatabase } from '@portico/storage/testing';
import { buildManagementApp } from '@portico/management';
import { Readiness } from '@portico/gateway';
import { startStatusServer } from '../../packages/gateway/src/status/status-server.js';
import { loadConfig } from '../../packages/cli/src/config.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const KUBERNETES = path.join(ROOT, 'deploy/kubernetes');

interface Probe {
  httpGet: { path: string; port: number };
}
interface Container {
  name: string;
  args: string[];
  ports: { containerPort: number }[];
  env?: { name: string; value?: string; valueFrom?: { secretKeyRef: { name: string; key: string } } }[];
  envFrom?: { configMapRef: { name: string } }[];
  livenessProbe: Probe;
  readinessProbe: Probe;
}
interface Resource {
  kind: string;
  metadata: { name: string };
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  spec: {
    template: { spec: { terminationGracePeriodSeconds: number; containers: Container[] } };
    scaleTargetRef: { kind: string; name: string };
    selector: Record<string, string>;
    ports: { targetPort: number }[];
  };
}

const resources: Resource[] = readdirSync(KUBERNETES)
  .filter((f) => f.endsWith('.yaml'))
  .flatMap((f) =>
    parseAllDocuments(readFileSync(path.join(KUBERNETES, f), 'utf8')).map((d) => d.toJS() as Resource),
  );
const byKind = (kind: string) => resources.filter((r) => r.kind === kind);

/** Every source file of the packages that run in the image: the variables the code really reads. */
const sources = ['cli', 'gateway', 'management', 'storage']
  .flatMap((pkg) =>
    readdirSync(path.join(ROOT, 'packages', pkg, 'src'), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.includes('test-support'))
      .map((f) => readFileSync(path.join(ROOT, 'packages', pkg, 'src', f), 'utf8')),
  )
  .join('\n');
const readByCode = (name: string) => new RegExp(`env\\.${name}\\b|env\\[['"]${name}['"]\\]`).test(sources);

/** The environment a container gets: its ConfigMaps, its own values, its Secrets' values. */
function environmentOf(container: Container): Record<string, string> {
  const env: Record<string, string> = {};
  for (const from of container.envFrom ?? []) {
    const map = byKind('ConfigMap').find((c) => c.metadata.name === from.configMapRef.name);
    expect(map, `ConfigMap ${from.configMapRef.name}`).toBeDefined();
    Object.assign(env, map!.data);
  }
  for (const e of container.env ?? []) {
    if (e.valueFrom) {
      const secret = byKind('Secret').find((s) => s.metadata.name === e.valueFrom!.secretKeyRef.name);
      expect(secret?.stringData?.[e.valueFrom.secretKeyRef.key], `${e.name} from its Secret`).toBeDefined();
      env[e.name] = secret!.stringData![e.valueFrom.secretKeyRef.key]!;
    } else env[e.name] = e.value ?? '';
  }
  return env;
}

function deployment(name: string) {
  const found = byKind('Deployment').find((d) => d.metadata.name === name);
  expect(found, name).toBeDefined();
  return { spec: found!.spec.template.spec, container: found!.spec.template.spec.containers[0]! };
}

/**
 * The Dockerfile and the Kubernetes manifests (issue 22, item 7) name only ports, paths and variables
 * that the code really uses; probes reach real endpoints; grace periods outlast the drain.
 */
describe('deployment files', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase('sqlite');
  });
  afterAll(() => t?.destroy());

  it('reads every variable the manifests set, from ConfigMaps, Secrets and the containers', () => {
    const names = new Set<string>();
    for (const r of [...byKind('ConfigMap'), ...byKind('Secret')])
      for (const key of Object.keys({ ...r.data, ...r.stringData })) names.add(key);
    for (const d of byKind('Deployment'))
      for (const c of d.spec.template.spec.containers) for (const e of c.env ?? []) names.add(e.name);
    expect(names.size).toBeGreaterThan(5);
    expect([...names].filter((n) => !readByCode(n))).toEqual([]);
    // The configuration accepts the values as given.
    for (const d of byKind('Deployment'))
      loadConfig(environmentOf(d.spec.template.spec.containers[0]!), os.tmpdir());
  });

  it('probes the gateway on its status listener, whose /live and /ready answer', async () => {
    const { spec, container } = deployment('portico-gateway');
    expect(container.args).toEqual(['gateway']);
    const config = loadConfig(environmentOf(container), os.tmpdir());
    expect(container.ports.map((p) => p.containerPort).sort()).toEqual(
      [config.gatewayPort, config.gatewayStatusPort].sort(),
    );
    const readiness = new Readiness();
    readiness.markLoaded();
    const server = await startStatusServer(readiness, 0, '127.0.0.1');
    try {
      for (const probe of [container.livenessProbe, container.readinessProbe]) {
        expect(probe.httpGet.port).toBe(config.gatewayStatusPort);
        expect((await fetch(`http://127.0.0.1:${server.port}${probe.httpGet.path}`)).status).toBe(200);
      }
    } finally {
      await server.close();
    }
    expect(container.readinessProbe.httpGet.path).toBe('/ready');
    expect(spec.terminationGracePeriodSeconds * 1000).toBeGreaterThan(config.drain.maxMs);
    const service = byKind('Service').find((s) => s.metadata.name === 'portico-gateway')!;
    expect(service.spec.ports.map((p) => p.targetPort)).toEqual([config.gatewayPort]);
    const hpa = byKind('HorizontalPodAutoscaler')[0]!;
    expect(hpa.spec.scaleTargetRef).toMatchObject({ kind: 'Deployment', name: 'portico-gateway' });
  });

  it('probes the management server on its own port, whose /live and /ready answer', async () => {
    const { spec, container } = deployment('portico-management');
    expect(container.args).toEqual(['management']);
    const config = loadConfig(environmentOf(container), os.tmpdir());
    expect(container.ports.map((p) => p.containerPort)).toEqual([config.managementPort]);
    const { app } = await buildManagementApp({
      storage: t.storage,
      bus: new EventBus(),
      options: { schedulerTickMs: 0 },
    });
    try {
      await app.ready();
      for (const probe of [container.livenessProbe, container.readinessProbe]) {
        expect(probe.httpGet.port).toBe(config.managementPort);
        expect((await app.inject({ method: 'GET', url: probe.httpGet.path })).statusCode).toBe(200);
      }
    } finally {
      await app.close();
    }
    expect(container.readinessProbe.httpGet.path).toBe('/ready');
    expect(spec.terminationGracePeriodSeconds * 1000).toBeGreaterThan(config.drain.maxMs);
  });

  it('builds an image that runs the CLI as a non-root user, with production dependencies in their own layer', () => {
    const dockerfile = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
    const stages = dockerfile.match(/^FROM .*/gm) ?? [];
    expect(stages.length).toBeGreaterThanOrEqual(2);
    expect(dockerfile).toMatch(/^RUN npm ci --omit=dev/m);
    // The production layer is built from the manifests alone, before any source is copied into it.
    const production = dockerfile.slice(dockerfile.indexOf('AS dependencies'));
    expect(production.slice(0, production.indexOf('RUN npm ci --omit=dev'))).not.toMatch(/^COPY packages /m);
    expect(dockerfile).toMatch(/^USER node$/m);
    const entrypoint = JSON.parse(/^ENTRYPOINT (.*)$/m.exec(dockerfile)![1]!) as string[];
    const cli = JSON.parse(readFileSync(path.join(ROOT, 'packages/cli/package.json'), 'utf8')) as {
      bin: Record<string, string>;
    };
    expect(entrypoint).toEqual(['node', `packages/cli/${cli.bin.portico}`]);
    const defaults = loadConfig({}, os.tmpdir());
    const exposed = /^EXPOSE (.*)$/m.exec(dockerfile)![1]!.split(/\s+/).map(Number);
    expect(exposed.sort()).toEqual(
      [defaults.gatewayPort, defaults.managementPort, defaults.webPort, defaults.gatewayStatusPort].sort(),
    );
    expect(/^ENV[\s\S]*?PORTICO_DATA_DIR=(\S+)/m.exec(dockerfile)?.[1]).toBe('/data');
    for (const copied of dockerfile.matchAll(/^COPY (packages\/\S+\/package\.json) /gm))
      expect(() => readFileSync(path.join(ROOT, copied[1]!))).not.toThrow();
  });
});
