import { describe, expect, it } from 'vitest';
import { apiEntrypoints, headerDescription } from './entrypoints';

const api = { tags: ['internal', 'eu'], context_path: '/shop' };

describe('the entrypoints of an API in the portal header', () => {
  it('lists the entrypoints sharing a tag with the API, with the shared tags', () => {
    expect(
      apiEntrypoints(
        api,
        [
          { value: 'https://eu.example.com/', tags: ['eu', 'external'] },
          { value: 'https://us.example.com', tags: ['us'] },
          { value: 'https://in.example.com', tags: ['internal', 'eu'] },
        ],
        'http://localhost:8082',
      ),
    ).toEqual([
      { value: 'https://eu.example.com/shop', tags: ['eu'] },
      { value: 'https://in.example.com/shop', tags: ['internal', 'eu'] },
    ]);
  });

  it('falls back to the default entrypoint when no entrypoint shares a tag', () => {
    expect(
      apiEntrypoints(api, [{ value: 'https://us.example.com', tags: ['us'] }], 'http://gw:8082/'),
    ).toEqual([{ value: 'http://gw:8082/shop', tags: [] }]);
    expect(apiEntrypoints({ tags: [], context_path: '/a' }, [], 'http://gw')).toEqual([
      { value: 'http://gw/a', tags: [] },
    ]);
  });

  it('cuts a description at 150 characters', () => {
    expect(headerDescription(null)).toBe('');
    expect(headerDescription('short')).toBe('short');
    const cut = headerDescription('x'.repeat(200));
    expect(cut).toBe(`${'x'.repeat(150)}…`);
  });
});
