import { describe, expect, it } from 'vitest';
import { childrenOf, folderPath, isFolderPage, newPageChoices } from './api/pages';
import type { DocPage } from './api/pages';
import { swaggerOptions, withoutHtml, withTryItUrl } from './components/openapi-options';
import { level2Headings, slugOf } from './components/markdown-view';

const page = (id: string, parentId: string | null, order: number, type = 'MARKDOWN') =>
  ({ id, name: id, parentId, order, type }) as DocPage;

describe('documentation pages: rendering helpers', () => {
  it('lists the level-2 headings outside code blocks', () => {
    expect(level2Headings('# T\n## One\n```\n## not\n```\n### three\n## Two ##\n')).toEqual(['One', 'Two']);
    expect(slugOf('Call the API!')).toBe('doc-call-the-api');
  });

  it('maps the page configuration to swagger-ui options, defaults none and every tag', () => {
    expect(swaggerOptions({})).toMatchObject({
      docExpansion: 'none',
      supportedSubmitMethods: [],
      filter: false,
    });
    expect(swaggerOptions({ tryIt: 'true', docExpansion: 'full', maxDisplayedTags: '3' })).toMatchObject({
      docExpansion: 'full',
      maxDisplayedTags: 3,
    });
    expect(swaggerOptions({ tryIt: 'true' }).supportedSubmitMethods).toContain('get');
    expect(
      swaggerOptions({
        displayOperationId: 'true',
        enableFiltering: 'true',
        showExtensions: 'true',
        showCommonExtensions: 'true',
        maxDisplayedTags: '-1',
      }),
    ).toMatchObject({
      displayOperationId: true,
      filter: true,
      showExtensions: true,
      showCommonExtensions: true,
      maxDisplayedTags: undefined,
    });
    expect(swaggerOptions({ showExtensions: 'false', displayOperationId: 'false' })).toMatchObject({
      showExtensions: false,
      displayOperationId: false,
    });
  });

  it('points try-it calls at the try-it URL, for OpenAPI 3 and Swagger 2', () => {
    expect(withTryItUrl({ openapi: '3.0.0' }, 'https://gw.example/pets')).toEqual({
      openapi: '3.0.0',
      servers: [{ url: 'https://gw.example/pets' }],
    });
    expect(withTryItUrl({ swagger: '2.0' }, 'http://gw:8082/pets')).toEqual({
      swagger: '2.0',
      host: 'gw:8082',
      basePath: '/pets',
      schemes: ['http'],
    });
  });

  it('removes raw HTML from the descriptions of a spec, keeping the rest', () => {
    const spec = {
      info: { description: 'A <img src=x onerror="alert(1)"> **b**<script>x()</script>' },
      x: ['<b>'],
    };
    expect(withoutHtml(spec)).toEqual({ info: { description: 'A  **b**x()' }, x: ['<b>'] });
  });

  it('walks folders from the root and orders the pages of a folder', () => {
    const pages = [
      page('a', null, 1),
      page('f', null, 0, 'FOLDER'),
      page('g', 'f', 0, 'FOLDER'),
      page('p', 'g', 0),
    ];
    expect(folderPath(pages, 'g').map((p) => p.id)).toEqual(['f', 'g']);
    expect(childrenOf(pages, null).map((p) => p.id)).toEqual(['f', 'a']);
    // The ROOT page holds pages as a folder does.
    expect(['FOLDER', 'ROOT', 'MARKDOWN'].map((type) => isFolderPage({ type } as DocPage))).toEqual([
      true,
      true,
      false,
    ]);
  });

  it('offers a ROOT page at the root only, disabled once the documentation has its one ROOT page', () => {
    const offered = (pages: DocPage[], folder: string | null) =>
      newPageChoices(pages, folder).map((c) => `${c.type}${c.disabled ? ' (disabled)' : ''}`);
    const pages = [page('f', null, 0, 'FOLDER'), page('a', 'f', 0)];
    expect(offered(pages, null)).toEqual(['FOLDER', 'MARKDOWN', 'SWAGGER', 'RAML', 'ROOT']);
    expect(offered(pages, 'f')).toEqual(['FOLDER', 'MARKDOWN', 'SWAGGER', 'RAML']);
    // A ROOT page anywhere in the documentation, even inside a folder, is the one it may have.
    expect(offered([...pages, page('r', 'f', 1, 'ROOT')], null)).toEqual([
      'FOLDER',
      'MARKDOWN',
      'SWAGGER',
      'RAML',
      'ROOT (disabled)',
    ]);
  });
});
