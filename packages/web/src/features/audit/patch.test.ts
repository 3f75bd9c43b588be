import { describe, expect, it } from 'vitest';
import { diffLines } from './patch';

describe('audit patch as diff lines', () => {
  it('reads each JSON Patch operation with a readable path', () => {
    const patch = JSON.stringify([
      { op: 'replace', path: '/description', value: 'New text' },
      { op: 'add', path: '/proxy/endpoints/1', value: { target: 'http://b' } },
      { op: 'remove', path: '/labels/0' },
      { op: 'move', path: '/a~1b', from: '/c~0d' },
    ]);
    expect(diffLines(patch)).toEqual([
      { kind: 'changed', path: 'description', value: 'New text' },
      { kind: 'added', path: 'proxy › endpoints › 1', value: '{"target":"http://b"}' },
      { kind: 'removed', path: 'labels › 0' },
      { kind: 'moved', path: 'a/b', from: 'c~d' },
    ]);
  });

  it('shows nothing for no patch or one that is not a JSON array', () => {
    expect(diffLines(null)).toEqual([]);
    expect(diffLines('not json')).toEqual([]);
    expect(diffLines('{"op":"add"}')).toEqual([]);
  });
});
