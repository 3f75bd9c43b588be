import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmptyPostgresDatabase, testDialects } from '@portico/storage/testing';
import { login, startPortico, type PorticoProcess } from '../support/portico-process.js';

/**
 * Dictionaries through the real `portico start` process: an API whose policy reads
 * `{#dictionaries['backend-hosts']['eu']}` sends the deployed value to its backend, follows a
 * redeployment within a second, and renders nothing once the dictionary is undeployed.
 */
for (const dialect of await testDialects()) {
  describe(`${dialect}: deployed dictionaries reach the gateway's expressions`, () => {
    let portico: PorticoProcess;
    let dataDir: string;
    let database: { url: string; drop(): Promise<void> } | undefined;
    let token: string;
    let backend: http.Server;
    let backendUrl = '';

    beforeAll(async () => {
      backend = http.createServer((req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ region: req.headers['x-region'] ?? null }));
      });
      await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', resolve));
      backendUrl = `http://127.0.0.1:${(backend.address() as AddressInfo).port}`;
      dataDir = mkdtempSync(path.join(os.tmpdir(), 'portico-dict-'));
      database = dialect === 'postgres' ? await createEmptyPostgresDatabase() : undefined;
      portico = await startPortico('start', {
        PORTICO_DATA_DIR: dataDir,
        ...(database ? { DATABASE_URL: database.url } : {}),
      });
      token = await login(portico.managementUrl, 'admin', 'admin');
    }, 60_000);
    afterAll(async () => {
      await portico?.kill();
      await database?.drop();
      await new Promise<void>((resolve) => backend?.close(() => resolve()));
      rmSync(dataDir, { recursive: true, force: true });
    });

    const api = async <T = Record<string, unknown>>(
      method: string,
      url: string,
      body?: unknown,
    ): Promise<T> => {
      const res = await fetch(`${portico.managementUrl}${url}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      expect([200, 201, 204], `${method} ${url} answered ${res.status}: ${text}`).toContain(res.status);
      return (text ? JSON.parse(text) : undefined) as T;
    };
    /** Calls the API through the gateway until the backend saw `expected` as X-Region (at most 1 s). */
    const seen = async (expected: string | null) => {
      const started = Date.now();
      let last: unknown;
      while (Date.now() - started < 1000) {
        const res = await fetch(`${portico.gatewayUrl}/dict-flow/x`);
        last = res.status === 200 ? ((await res.json()) as { region: string | null }).region : res.status;
        if (last === expected) return;
        await new Promise((r) => setTimeout(r, 25));
      }
      expect(last).toBe(expected);
    };

    it('serves the deployed value, follows redeployments and undeployment', async () => {
      await api('POST', '/configuration/dictionaries', {
        name: 'Backend hosts',
        type: 'MANUAL',
        properties: { eu: 'eu.example' },
      });
      await api('POST', '/configuration/dictionaries/backend-hosts/_deploy');

      const { id } = await api<{ id: string }>('POST', '/apis', {
        name: 'Regions',
        version: '1',
        description: 'Reads a dictionary',
        context_path: '/dict-flow',
        endpoint: backendUrl,
      });
      await api('PUT', `/apis/${id}`, {
        paths: {
          '/': [
            {
              'transform-headers': {
                scope: 'REQUEST',
                addHeaders: [{ name: 'X-Region', value: "{#dictionaries['backend-hosts']['eu']}" }],
              },
            },
          ],
        },
      });
      const plan = await api<{ id: string }>('POST', `/apis/${id}/plans`, {
        name: 'Open',
        description: 'Keyless',
        security: 'KEY_LESS',
        validation: 'AUTO',
      });
      await api('POST', `/apis/${id}/plans/${plan.id}/_publish`);
      await api('POST', `/apis/${id}/deploy`);
      await api('POST', `/apis/${id}?action=START`);
      await seen('eu.example');

      await api('PUT', '/configuration/dictionaries/backend-hosts', {
        name: 'Backend hosts',
        type: 'MANUAL',
        properties: { eu: 'eu2.example' },
      });
      // Saved but not deployed: the gateway still serves the deployed value.
      await seen('eu.example');
      await api('POST', '/configuration/dictionaries/backend-hosts/_deploy');
      await seen('eu2.example');

      await api('POST', '/configuration/dictionaries/backend-hosts/_undeploy');
      // The template renders nothing for a dictionary that is not deployed.
      await seen('');
    });
  });
}
