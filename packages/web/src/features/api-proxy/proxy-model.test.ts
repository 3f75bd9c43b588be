import { describe, expect, it } from 'vitest';
import type { Proxy } from '@portico/model';
import { Proxy as ProxySchema } from '@portico/model';
import {
  endpointProblems,
  groupProblems,
  httpConfigProblems,
  nameProblem,
  withInheritance,
  withoutGroup,
} from './proxy-model';

const proxy: Proxy = ProxySchema.parse({
  context_path: '/echo',
  groups: [
    {
      name: 'default-group',
      endpoints: [
        { name: 'default', target: 'https://a' },
        { name: 'b', target: 'https://b' },
      ],
    },
    { name: 'other', endpoints: [] },
  ],
});

describe('proxy editors rules (console-apis.md 5)', () => {
  it('names: required, no colon, unique among endpoints and groups, the own name allowed', () => {
    expect(nameProblem(proxy, ' ', {})).toBe('required');
    expect(nameProblem(proxy, 'a:b', {})).toBe('colon');
    expect(nameProblem(proxy, 'default', { group: 0 })).toBe('taken');
    expect(nameProblem(proxy, 'other', { group: 0 })).toBe('taken');
    expect(nameProblem(proxy, 'b', { group: 0, endpoint: 1 })).toBeUndefined();
    expect(nameProblem(proxy, 'other', { group: 1 })).toBeUndefined();
    expect(nameProblem(proxy, 'default-group', { group: 1, endpoint: 0 })).toBe('taken');
  });

  it('endpoint: target required, weight 1 to 99; HTTP rules only when not inherited', () => {
    const endpoint = { ...proxy.groups[0]!.endpoints[1]!, target: '', weight: 100 };
    const withHttp = {
      ...endpoint,
      http: { ...proxy.groups[0]!.endpoints[0]!, maxConcurrentConnections: 9 },
    };
    expect(endpointProblems(proxy, { group: 0, endpoint: 1 }, endpoint)).toEqual({
      target: 'required',
      weight: 'weight',
    });
    expect(
      endpointProblems(proxy, { group: 0, endpoint: 1 }, { ...withHttp, inherit: false, weight: 0 } as never),
    ).toMatchObject({ weight: 'weight', 'http.maxConcurrentConnections': 'min10' });
  });

  it('HTTP configuration: proxy host and port, stores, timeouts', () => {
    expect(
      httpConfigProblems({
        proxy: { enabled: true, useSystemProxy: false, type: 'SOCKS5' },
        ssl: {
          trustAll: false,
          hostnameVerifier: true,
          trustStore: { type: 'JKS', path: '/t.jks' },
          keyStore: { type: 'PEM', certContent: 'c' },
        },
      }),
    ).toEqual({
      'proxy.host': 'required',
      'proxy.port': 'required',
      'ssl.trustStore.password': 'storePassword',
      'ssl.keyStore.keyPath': 'pemKeyStore',
    });
    expect(
      httpConfigProblems({
        ssl: { trustAll: false, hostnameVerifier: true, trustStore: { type: 'PKCS12' } },
      }),
    ).toEqual({ 'ssl.trustStore.path': 'storePathOrContent', 'ssl.trustStore.password': 'storePassword' });
    expect(groupProblems(proxy, { group: 1 }, { ...proxy.groups[1]!, name: 'b' })).toEqual({ name: 'taken' });
  });

  it('the last group cannot be deleted', () => {
    const one = withoutGroup(proxy, 1)!;
    expect(one.groups.map((g) => g.name)).toEqual(['default-group']);
    expect(withoutGroup(one, 0)).toBeUndefined();
  });
});

describe('endpoint inherit (console-apis.md 4)', () => {
  const group = ProxySchema.parse({
    context_path: '/echo',
    groups: [
      {
        name: 'g',
        endpoints: [{ name: 'e', target: 'https://e' }],
        http: { maxConcurrentConnections: 20, keepAlive: false },
        proxy: { enabled: true, type: 'SOCKS5', host: 'socks.local', port: 1080 },
        ssl: { trustAll: true },
        headers: { 'X-Env': 'test' },
      },
    ],
  }).groups[0]!;
  const endpoint = group.endpoints[0]!;

  it("turned off, the endpoint starts from a copy of its group's HTTP configuration", () => {
    const own = withInheritance(endpoint, group, false);
    expect(own).toMatchObject({
      name: 'e',
      inherit: false,
      http: group.http,
      proxy: group.proxy,
      ssl: group.ssl,
      headers: { 'X-Env': 'test' },
    });
    own.http!.maxConcurrentConnections = 50;
    own.headers!['X-Env'] = 'changed';
    expect(group.http!.maxConcurrentConnections).toBe(20);
    expect(group.headers).toEqual({ 'X-Env': 'test' });
  });

  it('turned off with a group of no configuration, the endpoint keeps none of its own; on, it inherits', () => {
    const bare = { ...group, http: undefined, proxy: undefined, ssl: undefined, headers: undefined };
    const own = withInheritance({ ...endpoint, http: { ...group.http! } }, bare, false);
    expect(own.http).toBeUndefined();
    expect(own.inherit).toBe(false);
    expect(withInheritance(own, group, true).inherit).toBe(true);
  });
});
