import { createServer } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousA11yViolations } from './support/app';
import { screenshot } from './support/browser';
import { consoleSuite } from './support/console-suite';
import { saveSettings } from './support/portico';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (data: Buffer) => {
  let c = 0xffffffff;
  for (const byte of data) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type: string, data: Buffer) => {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
};

/** A real PNG picture: a width × height rectangle of one colour. */
function png(width: number, height: number, [r, g, b]: [number, number, number]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([
    Buffer.from([0]),
    Buffer.from(Array.from({ length: width }, () => [r, g, b]).flat()),
  ]);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * The documentation of an API beyond its list and editor (console-apis.md 2.8, issue 13): an OpenAPI
 * page's try-it through the real gateway to a real backend with the user's key; the Markdown editor's
 * image upload; the import from a (local) GitHub and the viewer's 'Edit on GitHub'.
 */
describe('API documentation: try-it, images, import', () => {
  // The backend behind the gateway: it answers with what it received.
  const received: { url: string; headers: IncomingHttpHeaders }[] = [];
  const backend = createServer((req, res) => {
    received.push({ url: req.url ?? '', headers: req.headers });
    res
      .writeHead(200, { 'Content-Type': 'application/json' })
      .end(JSON.stringify({ greeting: 'Hello from the backend', path: req.url }));
  });
  // A local GitHub: the contents API of acme/docs at main.
  const files: Record<string, string> = {
    'docs/guide.md': '# Guide\n\n## Install\n\nRun the installer.',
    'docs/reference/openapi.yaml': 'openapi: 3.0.3\ninfo:\n  title: Imported\n  version: "1"\npaths: {}\n',
    'docs/notes.txt': 'not a page',
  };
  const githubCalls: string[] = [];
  const github = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    githubCalls.push(url.pathname);
    const path = decodeURIComponent(url.pathname.replace(/^\/repos\/acme\/docs\/contents\/?/, ''));
    const send = (body: unknown) =>
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
    if (files[path] !== undefined)
      return send({
        type: 'file',
        path,
        encoding: 'base64',
        content: Buffer.from(files[path]).toString('base64'),
        html_url: `https://github.example/acme/docs/blob/main/${path}`,
      });
    const children = new Map<string, string>();
    for (const file of Object.keys(files).filter((f) => f.startsWith(`${path}/`))) {
      const rest = file.slice(path.length + 1).split('/');
      children.set(`${path}/${rest[0]}`, rest.length > 1 ? 'dir' : 'file');
    }
    if (children.size === 0) return res.writeHead(404).end('{"message":"Not Found"}');
    return send([...children].map(([p, type]) => ({ type, path: p, name: p.split('/').pop() })));
  });
  let backendUrl = '';
  let githubUrl = '';
  const allowPrivate = process.env.PORTICO_OUTBOUND_ALLOW_PRIVATE;
  beforeAll(async () => {
    process.env.PORTICO_OUTBOUND_ALLOW_PRIVATE = 'true';
    await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', resolve));
    await new Promise<void>((resolve) => github.listen(0, '127.0.0.1', resolve));
    backendUrl = `http://127.0.0.1:${(backend.address() as AddressInfo).port}/backend`;
    githubUrl = `http://127.0.0.1:${(github.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    if (allowPrivate === undefined) delete process.env.PORTICO_OUTBOUND_ALLOW_PRIVATE;
    else process.env.PORTICO_OUTBOUND_ALLOW_PRIVATE = allowPrivate;
    await Promise.all([backend, github].map((s) => new Promise((resolve) => s.close(resolve))));
  });
  const { world, api, adminOn, toast, main } = consoleSuite();

  it("tries an OpenAPI operation through the gateway with the user's key and shows the backend's answer", async () => {
    const { id: apiId } = await api<{ id: string }>('POST', 'apis', {
      name: 'Greetings',
      version: '1.0',
      description: 'Says hello',
      context_path: '/greetings',
      endpoint: backendUrl,
    });
    // The web app is another origin than the gateway: the API lets it call (CORS).
    const current = await api<{ proxy: Record<string, unknown> }>('GET', `apis/${apiId}`);
    await api('PUT', `apis/${apiId}`, {
      ...current,
      proxy: {
        ...current.proxy,
        cors: { enabled: true, allowOrigin: [world.portico.webUrl], allowMethods: ['GET'] },
      },
    });
    const plan = await api<{ id: string }>('POST', `apis/${apiId}/plans`, {
      name: 'Keys',
      description: 'With an API key',
      security: 'API_KEY',
      validation: 'AUTO',
    });
    await api('POST', `apis/${apiId}/plans/${plan.id}/_publish`);
    await api('POST', `apis/${apiId}/deploy`);
    await api('POST', `apis/${apiId}?action=START`);
    const application = await api<{ id: string }>('POST', 'applications', {
      name: 'Greeter',
      description: 'Greets people',
    });
    const subscription = await api<{ id: string; status: string }>(
      'POST',
      `applications/${application.id}/subscriptions?plan=${plan.id}`,
      {},
    );
    expect(subscription.status).toBe('ACCEPTED');
    const [{ key }] = await api<{ key: string }[]>(
      'GET',
      `applications/${application.id}/subscriptions/${subscription.id}/keys`,
    );
    // The gateway serves the key before the page is tried.
    await expect
      .poll(
        async () =>
          (await fetch(`${world.portico.gatewayUrl}/greetings/hello`, { headers: { 'X-Api-Key': key! } }))
            .status,
        { timeout: 15_000 },
      )
      .toBe(200);
    received.length = 0;

    const spec = {
      openapi: '3.0.3',
      info: { title: 'Greetings', version: '1.0' },
      servers: [{ url: 'https://elsewhere.example.com/v1' }],
      paths: {
        '/hello': {
          get: {
            operationId: 'sayHello',
            summary: 'Say hello',
            responses: { '200': { description: 'A greeting' } },
          },
        },
      },
    };
    const openapi = await api<{ id: string }>('POST', `apis/${apiId}/pages`, {
      name: 'Reference',
      type: 'SWAGGER',
      published: true,
      content: JSON.stringify(spec),
      configuration: { tryIt: 'true', showURL: 'true', docExpansion: 'list' },
    });
    const page = await adminOn(`/management/apis/${apiId}/documentation/${openapi.id}`);
    const entrypoint = `${world.portico.gatewayUrl}/greetings`;
    await main(page).getByText(`Calls go to ${entrypoint}.`).waitFor();
    expect(await main(page).getByRole('link', { name: 'The OpenAPI description' }).getAttribute('href')).toBe(
      `${world.portico.apiUrl}apis/${apiId}/pages/${openapi.id}/content`,
    );
    // The user's own key, picked from their subscriptions.
    await main(page).getByRole('combobox', { name: 'Your keys for this API' }).click();
    await page.getByRole('option', { name: /^Greeter · Keys · / }).click();
    expect(await main(page).getByRole('textbox', { name: 'API key' }).inputValue()).toBe(key);

    await main(page).getByText('Say hello').click();
    await main(page).getByRole('button', { name: 'Try it out' }).click();
    await main(page).getByRole('button', { name: 'Execute' }).click();
    await main(page).locator('.live-responses-table').getByText('Hello from the backend').waitFor();
    expect(await main(page).locator('.request-url pre').textContent()).toBe(`${entrypoint}/hello`);
    expect(received).toHaveLength(1);
    expect(received[0]!.url).toBe('/backend/hello');
    await main(page).locator('.live-responses-table').scrollIntoViewIfNeeded();
    await screenshot(page, 'api-pages-try-it');
    expect(await seriousA11yViolations(page)).toEqual([]);

    // Without a key the gateway refuses the call: the answer shown is the gateway's own.
    await main(page).getByRole('textbox', { name: 'API key' }).fill('');
    await main(page).getByRole('button', { name: 'Execute' }).click();
    await main(page).locator('.live-responses-table').getByText('API Key is missing').waitFor();
    expect(received).toHaveLength(1);

    // tryIt off: no try-it at all.
    await api('PUT', `apis/${apiId}/pages/${openapi.id}`, {
      name: 'Reference',
      published: true,
      content: JSON.stringify(spec),
      configuration: { tryIt: 'false', docExpansion: 'list' },
    });
    await page.reload();
    await main(page).getByText('Say hello').click();
    await main(page).getByText('A greeting').waitFor();
    expect(await main(page).getByRole('button', { name: 'Try it out' }).count()).toBe(0);
    expect(await main(page).getByText('Try it through the gateway').count()).toBe(0);
  });

  it('uploads an image into a Markdown page within the media limit and shows it in the rendered page', async () => {
    await saveSettings(world.portico, world.token, {
      portal: { uploadMedia: { enabled: true, maxSizeInOctet: 2000 } },
    });
    const { id: apiId } = await api<{ id: string }>('POST', 'apis', {
      name: 'Pictures',
      version: '1.0',
      description: 'Has pictures',
      context_path: '/pictures',
      endpoint: backendUrl,
    });
    const doc = await api<{ id: string }>('POST', `apis/${apiId}/pages`, {
      name: 'Gallery',
      type: 'MARKDOWN',
      published: true,
      content: '# Gallery\n\n',
    });
    const page = await adminOn(`/management/apis/${apiId}/documentation/${doc.id}/edit`);
    const editor = main(page).getByRole('textbox', { name: 'Content (Markdown)' });
    await editor.waitFor();

    // Too big: refused with the spec's message, nothing inserted.
    const big = Buffer.concat([png(8, 8, [0, 0, 0]), Buffer.alloc(3000)]);
    let chooser = page.waitForEvent('filechooser');
    await main(page).getByRole('button', { name: 'Insert an image' }).click();
    await (await chooser).setFiles({ name: 'huge.png', mimeType: 'image/png', buffer: big });
    await main(page).getByText("file uploaded to big, you're limited at 2000 bytes").waitFor();
    expect(await editor.inputValue()).toBe('# Gallery\n\n');
    // The server refuses it the same way.
    const form = new FormData();
    form.append('file', new Blob([big], { type: 'image/png' }), 'huge.png');
    const refused = await fetch(`${world.portico.apiUrl}apis/${apiId}/media/upload`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${world.token}` },
      body: form,
    });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { message: string }).message).toContain("you're limited at 2000");

    await editor.evaluate((el: HTMLTextAreaElement) =>
      el.setSelectionRange(el.value.length, el.value.length),
    );
    chooser = page.waitForEvent('filechooser');
    await main(page).getByRole('button', { name: 'Insert an image' }).click();
    await (
      await chooser
    ).setFiles({ name: 'sunset.png', mimeType: 'image/png', buffer: png(160, 60, [230, 120, 40]) });
    await expect.poll(() => editor.inputValue()).toMatch(/!\[sunset\]\(http:\/\/.+\/media\/[0-9a-f]{64}\)/);
    const url = /\((http[^)]+)\)/.exec(await editor.inputValue())![1]!;
    expect(url.startsWith(`${world.portico.apiUrl}apis/${apiId}/media/`)).toBe(true);
    const served = await fetch(url, { headers: { Authorization: `Bearer ${world.token}` } });
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(
      Buffer.from(await served.arrayBuffer())
        .subarray(0, 4)
        .toString('latin1'),
    ).toBe('\x89PNG');
    await main(page).getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Page Gallery saved').waitFor();

    await main(page).getByRole('button', { name: 'View' }).click();
    const image = main(page).getByRole('img', { name: 'sunset' });
    await image.waitFor();
    await expect
      .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBe(160);
    await screenshot(page, 'api-pages-image');
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it("imports a repository folder's pages with the rate-limit warning; a fetched page offers 'Edit on GitHub'", async () => {
    const { id: apiId } = await api<{ id: string }>('POST', 'apis', {
      name: 'Imported',
      version: '1.0',
      description: 'Docs from GitHub',
      context_path: '/imported',
      endpoint: backendUrl,
    });
    const page = await adminOn(`/management/apis/${apiId}/documentation`);
    await main(page).getByRole('link', { name: 'Import pages' }).click();
    await main(page)
      .getByText(
        'Each file of the source causes one request to it: importing many files can hit the rate limits of the source.',
      )
      .waitFor();
    await main(page).getByRole('button', { name: 'Import' }).click();
    await main(page).getByText('A source type is required.').waitFor();
    await main(page).getByRole('combobox', { name: 'Source' }).click();
    await page.getByRole('option', { name: 'GitHub' }).click();
    await main(page).getByRole('textbox', { name: 'Github url' }).fill(githubUrl);
    await main(page).getByRole('textbox', { name: 'Owner' }).fill('acme');
    await main(page).getByRole('textbox', { name: 'Repository' }).fill('docs');
    await main(page).getByRole('textbox', { name: 'Filepath' }).fill('docs');
    await main(page).getByRole('switch', { name: 'Publish the imported pages' }).click();
    await screenshot(page, 'api-pages-import');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await main(page).getByRole('button', { name: 'Import' }).click();
    await toast(page, /pages created or updated/).waitFor();
    await page.waitForURL(/\/documentation$/);
    // The repository's sub-folder becomes a folder holding its file.
    const names = () => main(page).locator('tbody tr td:first-child a').allTextContents();
    await expect.poll(names).toEqual(['guide', 'reference']);
    await main(page).getByRole('link', { name: 'reference', exact: true }).click();
    await expect.poll(names).toEqual(['openapi']);
    await page.goto(`${world.portico.webUrl}/management/apis/${apiId}/documentation`);

    await main(page).getByRole('link', { name: 'guide', exact: true }).click();
    await main(page).getByRole('heading', { name: 'Guide', exact: true }).waitFor();
    const editOn = main(page).getByRole('link', { name: 'Edit on GitHub' });
    expect(await editOn.getAttribute('href')).toBe(
      'https://github.example/acme/docs/edit/main/docs/guide.md',
    );
    expect(await editOn.getAttribute('target')).toBe('_blank');
    await screenshot(page, 'api-pages-edit-on');

    // Fetch all reads each file again: one request per file.
    githubCalls.length = 0;
    await page.goto(`${world.portico.webUrl}/management/apis/${apiId}/documentation`);
    await main(page).getByRole('button', { name: 'Fetch all' }).click();
    await toast(page, 'Pages fetched from their sources').waitFor();
    expect(githubCalls.sort()).toEqual([
      '/repos/acme/docs/contents/docs/guide.md',
      '/repos/acme/docs/contents/docs/reference/openapi.yaml',
    ]);
  });
});
