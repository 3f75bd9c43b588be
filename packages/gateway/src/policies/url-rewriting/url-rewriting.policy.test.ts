import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployedApi } from '../../test-support/deployments.js';
import { startPolicyHarness, type Echo, type PolicyHarness } from '../../test-support/policy-harness.js';
import { validatePolicyConfiguration } from '../registry.js';

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('url-rewriting policy', () => {
  let h: PolicyHarness;
  beforeAll(async () => {
    // The backend points at itself in Location and Link, as backends do.
    h = await startPolicyHarness({
      headers: (_req, url) => ({ location: `${url}/orders/1`, link: `<${url}/orders?page=2>; rel="next"` }),
    });
  });
  afterAll(() => h.close());

  const rewriting = (contextPath: string, config: Record<string, unknown>) =>
    deployedApi(contextPath, [h.backend.url], {
      definition: { paths: { '/': [{ 'url-rewriting': config }] } },
    });

  it("rewrites the backend's URLs in the Location and Link headers and in the body, to the gateway's", async () => {
    await h.deploy(
      rewriting('/rewritten', {
        fromRegex: escapeRegex(h.backend.url),
        toReplacement: "http://{#request.headers['host']}/rewritten",
      }),
    );
    const res = await fetch(`${h.gateway.url}/rewritten/orders`, {
      method: 'POST',
      body: `created at ${h.backend.url}/orders/1`,
      redirect: 'manual',
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('location')).toBe(`${h.gateway.url}/rewritten/orders/1`);
    expect(res.headers.get('link')).toBe(`<${h.gateway.url}/rewritten/orders?page=2>; rel="next"`);
    const text = await res.text();
    expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
    const seen = JSON.parse(text) as Echo;
    expect(seen.body).toBe(`created at ${h.gateway.url}/rewritten/orders/1`);
    expect(text).not.toContain(h.backend.url);
  });

  it('replaces captured groups ($1)', async () => {
    await h.deploy(
      rewriting('/rewritten-groups', {
        fromRegex: 'http://127\\.0\\.0\\.1:(\\d+)',
        toReplacement: 'https://api.example.com/port-$1',
      }),
    );
    const res = await fetch(`${h.gateway.url}/rewritten-groups`, { redirect: 'manual' });
    const port = new URL(h.backend.url).port;
    expect(res.headers.get('location')).toBe(`https://api.example.com/port-${port}/orders/1`);
  });

  it('leaves the body or the headers alone when told to', async () => {
    await h.deploy(
      rewriting('/rewritten-headers-only', {
        fromRegex: escapeRegex(h.backend.url),
        toReplacement: 'https://public',
        rewriteResponseBody: false,
      }),
    );
    const headersOnly = await fetch(`${h.gateway.url}/rewritten-headers-only`, {
      method: 'POST',
      body: h.backend.url,
      redirect: 'manual',
    });
    expect(headersOnly.headers.get('location')).toBe('https://public/orders/1');
    expect(((await headersOnly.json()) as Echo).body).toBe(h.backend.url);

    await h.deploy(
      rewriting('/rewritten-body-only', {
        fromRegex: escapeRegex(h.backend.url),
        toReplacement: 'https://public',
        rewriteResponseHeaders: false,
      }),
    );
    const bodyOnly = await fetch(`${h.gateway.url}/rewritten-body-only`, {
      method: 'POST',
      body: h.backend.url,
      redirect: 'manual',
    });
    expect(bodyOnly.headers.get('location')).toBe(`${h.backend.url}/orders/1`);
    expect(((await bodyOnly.json()) as Echo).body).toBe('https://public');
  });

  it('refuses a regular expression that does not compile', () => {
    expect(
      validatePolicyConfiguration('url-rewriting', { fromRegex: '(unclosed', toReplacement: '' }),
    ).toMatchObject({
      ok: false,
      field: 'fromRegex',
    });
  });
});
