import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployedApi } from '../../test-support/deployments.js';
import { startPolicyHarness, type Echo, type PolicyHarness } from '../../test-support/policy-harness.js';
import { validatePolicyConfiguration } from '../registry.js';

const ORDER_SCHEMA = JSON.stringify({
  type: 'object',
  required: ['item', 'qty'],
  properties: {
    item: { type: 'string' },
    qty: { type: 'integer', minimum: 1 },
    email: { type: 'string', format: 'email' },
  },
});

describe('json-validation policy', () => {
  let h: PolicyHarness;
  beforeAll(async () => {
    h = await startPolicyHarness();
    await h.deploy(
      deployedApi('/validated', [h.backend.url], {
        definition: {
          paths: {
            '/orders': [
              { methods: ['POST', 'PUT'], 'json-validation': { scope: 'REQUEST', schema: ORDER_SCHEMA } },
            ],
          },
        },
      }),
    );
  });
  afterAll(() => h.close());

  const post = (path: string, body?: string) =>
    fetch(`${h.gateway.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });

  it('passes a valid body on to the backend unchanged', async () => {
    const res = await post('/validated/orders', '{"item":"book","qty":2,"email":"a@example.com"}');
    expect(res.status).toBe(200);
    expect(((await res.json()) as Echo).body).toBe('{"item":"book","qty":2,"email":"a@example.com"}');
  });

  it('refuses a body that does not match the schema with 400 REQUEST_VALIDATION_INVALID, without calling the backend', async () => {
    const hitsBefore = h.backend.hits;
    const res = await post('/validated/orders', '{"item":"book","qty":0}');
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      message: 'Invalid request content: /qty must be >= 1',
      http_status: 400,
    });
    const badFormat = await post('/validated/orders', '{"item":"book","qty":1,"email":"nope"}');
    expect(badFormat.status).toBe(400);
    expect(h.backend.hits).toBe(hitsBefore);
  });

  it('refuses a body that is not JSON, and a missing body', async () => {
    const notJson = await post('/validated/orders', 'item=book');
    expect(notJson.status).toBe(400);
    expect(((await notJson.json()) as { message: string }).message).toBe(
      'Invalid request content: the body is not valid JSON',
    );
    const empty = await post('/validated/orders');
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as { message: string }).message).toBe(
      'Invalid request content: a JSON body is required',
    );
  });

  it('checks only the methods and path of its step', async () => {
    expect((await fetch(`${h.gateway.url}/validated/orders`)).status).toBe(200);
    expect((await post('/validated/other', 'not json')).status).toBe(200);
  });

  it('uses the configured message and status, and the API response template', async () => {
    await h.deploy(
      deployedApi('/validated-custom', [h.backend.url], {
        definition: {
          paths: {
            '/': [
              {
                'json-validation': {
                  schema: ORDER_SCHEMA,
                  errorMessage: "Order {#request.headers['x-order']} is not valid",
                  statusCode: 422,
                },
              },
            ],
          },
          response_templates: {
            REQUEST_VALIDATION_INVALID: {
              'application/xml': { status: 400, headers: {}, body: '<invalid/>' },
            },
          },
        },
      }),
    );
    const json = await fetch(`${h.gateway.url}/validated-custom`, {
      method: 'POST',
      headers: { 'x-order': 'A-1' },
      body: '{}',
    });
    expect(json.status).toBe(422);
    expect(await json.json()).toEqual({ message: 'Order A-1 is not valid', http_status: 422 });
    const xml = await fetch(`${h.gateway.url}/validated-custom`, {
      method: 'POST',
      headers: { accept: 'application/xml' },
      body: '{}',
    });
    expect(xml.status).toBe(400);
    expect(await xml.text()).toBe('<invalid/>');
  });

  it('checks the backend response in the RESPONSE scope: 500 RESPONSE_VALIDATION_INVALID when it does not match', async () => {
    const schema = (required: string) =>
      JSON.stringify({
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        required: [required],
      });
    await h.deploy(
      deployedApi('/validated-response', [h.backend.url], {
        definition: {
          paths: {
            '/good': [{ 'json-validation': { scope: 'RESPONSE', schema: schema('backend') } }],
            '/bad': [{ 'json-validation': { scope: 'RESPONSE', schema: schema('missing') } }],
          },
        },
      }),
    );
    const good = await fetch(`${h.gateway.url}/validated-response/good`, {
      method: 'POST',
      body: 'not json either',
    });
    expect(good.status).toBe(200);
    expect(((await good.json()) as Echo).url).toBe('/good');
    const bad = await fetch(`${h.gateway.url}/validated-response/bad`);
    expect(bad.status).toBe(500);
    expect(await bad.json()).toEqual({ message: 'Invalid response content', http_status: 500 });
  });

  it('reads draft-04 schemas, as older API definitions have them', async () => {
    const draft04 = JSON.stringify({
      $schema: 'http://json-schema.org/draft-04/schema#',
      type: 'object',
      properties: { qty: { type: 'number', maximum: 10, exclusiveMaximum: true } },
    });
    await h.deploy(
      deployedApi('/validated-draft04', [h.backend.url], {
        definition: { paths: { '/': [{ 'json-validation': { schema: draft04 } }] } },
      }),
    );
    expect((await post('/validated-draft04', '{"qty":9}')).status).toBe(200);
    expect((await post('/validated-draft04', '{"qty":10}')).status).toBe(400);
  });

  it('refuses a schema that is not JSON or not a valid JSON schema when saved', () => {
    expect(validatePolicyConfiguration('json-validation', { schema: '{not json' })).toMatchObject({
      ok: false,
      field: 'schema',
      message: 'Must be a JSON document',
    });
    const invalid = validatePolicyConfiguration('json-validation', { schema: '{"type":"nothing"}' });
    expect(invalid).toMatchObject({ ok: false, field: 'schema' });
    expect((invalid as { message: string }).message).toMatch(/^Invalid JSON schema/);
  });
});
