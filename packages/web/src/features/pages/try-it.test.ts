import { describe, expect, it } from 'vitest';
import { docsBase, pageKeys, PORTAL_DOCS } from './api/pages';
import { apiEntrypoint } from './api/try-it';
import { mediaUrl } from './components/image-upload';

describe('documentation pages: try-it target, media and scope', () => {
  const mappings = [
    { id: 'e1', value: 'https://internal.example.com/', tags: ['internal'] },
    { id: 'e2', value: 'https://partners.example.com', tags: ['partners', 'eu'] },
  ];

  it("calls the API at its sharding tag's entrypoint, else the portal's, followed by its context path", () => {
    expect(apiEntrypoint('http://gw:8082', mappings, { context_path: '/shop', tags: [] })).toBe(
      'http://gw:8082/shop',
    );
    expect(apiEntrypoint('http://gw:8082/', mappings, { context_path: '/shop', tags: ['eu'] })).toBe(
      'https://partners.example.com/shop',
    );
    expect(apiEntrypoint('http://gw:8082', mappings, { context_path: '/a/b', tags: ['internal'] })).toBe(
      'https://internal.example.com/a/b',
    );
    expect(apiEntrypoint('', [], { context_path: '/shop', tags: [] })).toBeUndefined();
  });

  it('makes the absolute URL of an uploaded image from the path the upload answers', () => {
    expect(mediaUrl('http://localhost:8083/management/', '/management/apis/a1/media/abc')).toBe(
      'http://localhost:8083/management/apis/a1/media/abc',
    );
  });

  it("reaches an API's documentation or the portal's", () => {
    expect(docsBase('a b')).toBe('apis/a%20b');
    expect(docsBase(PORTAL_DOCS)).toBe('portal');
    expect(pageKeys.list(PORTAL_DOCS)).toEqual(['portal', 'pages', 'list']);
    expect(pageKeys.detail('a1', 'p1')).toEqual(['apis', 'a1', 'pages', 'detail', 'p1']);
  });
});
