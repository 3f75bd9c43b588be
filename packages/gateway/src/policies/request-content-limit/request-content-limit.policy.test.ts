import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployedApi } from '../../test-support/deployments.js';
import { startPolicyHarness, type Echo, type PolicyHarness } from '../../test-support/policy-harness.js';

/** Sends a body in chunks (Transfer-Encoding: chunked, no Content-Length). */
function sendChunked(url: string, chunks: string[]): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    for (const c of chunks) req.write(c);
    req.end();
  });
}

describe('request-content-limit policy', () => {
  let h: PolicyHarness;
  beforeAll(async () => {
    h = await startPolicyHarness();
    await h.deploy(
      deployedApi('/limited-body', [h.backend.url], {
        definition: { paths: { '/': [{ 'request-content-limit': { limit: 10 } }] } },
      }),
    );
  });
  afterAll(() => h.close());

  it('lets a body within the limit through', async () => {
    const res = await fetch(`${h.gateway.url}/limited-body`, { method: 'POST', body: '0123456789' });
    expect(res.status).toBe(200);
    expect(((await res.json()) as Echo).body).toBe('0123456789');
  });

  it('refuses a larger body with 413 REQUEST_CONTENT_LIMIT_TOO_LARGE, without calling the backend', async () => {
    const hitsBefore = h.backend.hits;
    const res = await fetch(`${h.gateway.url}/limited-body`, { method: 'POST', body: '0123456789A' });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { message: string }).message).toMatch(/larger than the server is willing/);
    expect(h.backend.hits).toBe(hitsBefore);
  });

  it('refuses a body without Content-Length with 411 REQUEST_CONTENT_LIMIT_LENGTH_REQUIRED', async () => {
    const hitsBefore = h.backend.hits;
    const res = await sendChunked(`${h.gateway.url}/limited-body`, ['abc', 'def']);
    expect(res.status).toBe(411);
    expect(JSON.parse(res.body)).toEqual({
      message: 'The request must declare its Content-Length.',
      http_status: 411,
    });
    expect(h.backend.hits).toBe(hitsBefore);
  });

  it('lets requests without a body through', async () => {
    expect((await fetch(`${h.gateway.url}/limited-body`)).status).toBe(200);
  });

  it('answers through the API response templates of its keys', async () => {
    await h.deploy(
      deployedApi('/limited-templated', [h.backend.url], {
        definition: {
          paths: { '/': [{ 'request-content-limit': { limit: 1 } }] },
          response_templates: {
            REQUEST_CONTENT_LIMIT_TOO_LARGE: { '*/*': { status: 400, headers: {}, body: '{"too":"large"}' } },
            REQUEST_CONTENT_LIMIT_LENGTH_REQUIRED: {
              '*/*': { status: 400, headers: {}, body: '{"length":"required"}' },
            },
          },
        },
      }),
    );
    const large = await fetch(`${h.gateway.url}/limited-templated`, { method: 'POST', body: 'ab' });
    expect(large.status).toBe(400);
    expect(await large.json()).toEqual({ too: 'large' });
    const chunked = await sendChunked(`${h.gateway.url}/limited-templated`, ['a']);
    expect(chunked.status).toBe(400);
    expect(JSON.parse(chunked.body)).toEqual({ length: 'required' });
  });
});
