import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutboundPolicy } from '@portico/outbound';
import { readConsulService } from './consul.js';

/** A local server answering like Consul's health API. */
let instances: unknown[] = [];
let lastRequest: { url: string; token: string | undefined } | undefined;
const consul = http.createServer((req, res) => {
  lastRequest = { url: req.url ?? '', token: req.headers['x-consul-token'] as string | undefined };
  if (!req.url?.startsWith('/v1/health/service/orders')) return res.writeHead(404).end('[]');
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(instances));
});
let url = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => consul.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(consul.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => consul.close(() => resolve())));

const local = createOutboundPolicy({ allowed: ['127.0.0.1'] });

describe('the Consul reader', () => {
  it('reads the passing instances of the service, with the datacenter and the ACL token', async () => {
    instances = [
      { Node: { Address: '10.1.0.1' }, Service: { ID: 'orders-1', Address: '', Port: 8080 } },
      {
        Node: { Address: '10.1.0.2' },
        Service: { ID: 'orders-2', Address: '10.2.0.2', Port: 9090, Meta: { gravitee_ssl: 'true' } },
      },
    ];
    const found = await readConsulService({ url, service: 'orders', dc: 'dc1', acl: 'secret' }, local);
    expect(found).toEqual([
      { name: 'consul#orders-1', target: 'http://10.1.0.1:8080' },
      { name: 'consul#orders-2', target: 'https://10.2.0.2:9090' },
    ]);
    expect(lastRequest).toEqual({ url: '/v1/health/service/orders?passing=true&dc=dc1', token: 'secret' });
  });

  it('refuses a Consul URL the outbound policy does not allow, and fails on an error status', async () => {
    lastRequest = undefined;
    await expect(readConsulService({ url, service: 'orders' }, createOutboundPolicy())).rejects.toThrow();
    expect(lastRequest).toBeUndefined();
    await expect(readConsulService({ url, service: 'missing' }, local)).rejects.toThrow(/404/);
  });
});
