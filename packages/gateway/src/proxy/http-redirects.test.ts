import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployedApi } from '../test-support/deployments.js';
import { startPolicyHarness, type Echo, type PolicyHarness } from '../test-support/policy-harness.js';
import { endpointCalls, startRedirectingBackend } from '../test-support/http-config-backends.js';

describe('endpoint HTTP configuration: followRedirects', () => {
  let h: PolicyHarness;
  const closeAfter: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    h = await startPolicyHarness({ name: 'echo' });
  });
  afterAll(async () => {
    await Promise.all(closeAfter.map((close) => close()));
    await h.close();
  });

  const { deployGroup, get } = endpointCalls(() => h);

  describe('followRedirects', () => {
    let redirecting: Awaited<ReturnType<typeof startRedirectingBackend>>;
    beforeAll(async () => {
      redirecting = await startRedirectingBackend(h.backend.url);
      closeAfter.push(redirecting.close);
      await deployGroup('/redirects-off', { endpoints: [{ name: 'e', target: redirecting.url }] });
      await deployGroup('/redirects-on', {
        http: { followRedirects: true },
        endpoints: [{ name: 'e', target: redirecting.url }],
      });
    });

    it('answers the redirect to the client when off (the default)', async () => {
      const res = await get('/redirects-off/moved');
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe('/final');
      await res.body.dump();
    });

    it('follows redirects when on: 302 and 303 as GET, to another origin without the credentials', async () => {
      const moved = await get('/redirects-on/moved');
      expect(moved.statusCode).toBe(200);
      expect(await moved.body.json()).toMatchObject({ backend: 'redirecting', url: '/final', method: 'GET' });

      const posted = await request(`${h.gateway.url}/redirects-on/see-other`, {
        method: 'POST',
        body: 'form',
      });
      expect(posted.statusCode).toBe(303); // a streamed body cannot be sent again: not followed
      await posted.body.dump();

      const away = await get('/redirects-on/elsewhere', { authorization: 'Bearer secret', 'x-kept': 'yes' });
      expect(away.statusCode).toBe(200);
      const echo = (await away.body.json()) as Echo;
      expect(echo.url).toBe('/elsewhere');
      expect(echo.headers.authorization).toBeUndefined();
      expect(echo.headers['x-kept']).toBe('yes');
      expect(echo.headers.host).toBe(new URL(h.backend.url).host);
    });

    it('stops after 5 redirects and answers the last one', async () => {
      const before = redirecting.state.hits;
      const res = await get('/redirects-on/hop/0');
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe('/hop/6');
      await res.body.dump();
      expect(redirecting.state.hits - before).toBe(6);
    });

    it('sends a buffered body again on a 307, and leaves a streamed one to the client', async () => {
      // Logging buffers the request body: it can be sent again.
      const api = deployedApi('/redirects-buffered', [], {
        definition: {
          proxy: {
            context_path: '/redirects-buffered',
            logging: { mode: 'CLIENT' },
            groups: [
              {
                name: 'g',
                http: { followRedirects: true },
                endpoints: [{ name: 'e', target: redirecting.url }],
              },
            ],
          } as never,
        },
      });
      await h.deploy(api);
      const buffered = await request(`${h.gateway.url}/redirects-buffered/temporary`, {
        method: 'PUT',
        body: 'payload',
        headers: { 'content-type': 'text/plain' },
      });
      expect(buffered.statusCode).toBe(200);
      expect(await buffered.body.json()).toMatchObject({ method: 'PUT', url: '/kept', body: 'payload' });

      const streamed = await request(`${h.gateway.url}/redirects-on/temporary`, {
        method: 'PUT',
        body: 'payload',
      });
      expect(streamed.statusCode).toBe(307);
      await streamed.body.dump();
    });
  });
});
