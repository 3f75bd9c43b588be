import { describe, expect, it } from 'vitest';
import { addPath, editedPathsOf, moveEntry, pathProblem, pathsOf, sortedPaths } from './design-model';

describe('design model', () => {
  it('refuses an empty path, one without leading slash, and a duplicate once normalised', () => {
    const existing = ['/', '/orders/:id'];
    expect(pathProblem(existing, ' ')).toBe('required');
    expect(pathProblem(existing, 'orders')).toBe('slash');
    expect(pathProblem(existing, '/orders/:number/')).toBe('duplicate');
    expect(pathProblem(existing, '//')).toBe('duplicate');
    expect(pathProblem(existing, '/orders/:id/items')).toBeUndefined();
  });

  it('reads and writes the wire steps, keeping order, methods, enabled and description', () => {
    const paths = {
      '/': [
        {
          methods: ['GET' as const],
          enabled: false,
          description: 'd',
          'transform-headers': { scope: 'REQUEST' },
        },
        { latency: { time: 1 } },
      ],
    };
    const edited = editedPathsOf(paths);
    expect(edited['/']!.map((e) => [e.policy, e.enabled, e.methods])).toEqual([
      ['transform-headers', false, ['GET']],
      ['latency', true, []],
    ]);
    expect(pathsOf(edited)).toEqual({
      '/': [
        { methods: ['GET'], enabled: false, description: 'd', 'transform-headers': { scope: 'REQUEST' } },
        { methods: [], enabled: true, latency: { time: 1 } },
      ],
    });
  });

  it('copies the root policies into a new path as separate entries', () => {
    const edited = editedPathsOf({ '/': [{ latency: { time: 1 } }] });
    const next = addPath(edited, '/orders', true);
    expect(next['/orders']).toHaveLength(1);
    expect(next['/orders']![0]!.key).not.toBe(edited['/']![0]!.key);
    next['/orders']![0]!.configuration.time = 2;
    expect(edited['/']![0]!.configuration.time).toBe(1);
    expect(addPath(edited, '/empty', false)['/empty']).toEqual([]);
    expect(sortedPaths(next)).toEqual(['/', '/orders']);
  });

  it('moves an entry within bounds only', () => {
    expect(moveEntry(['a', 'b', 'c'], 0, 2)).toEqual(['b', 'c', 'a']);
    expect(moveEntry(['a', 'b'], 0, -1)).toEqual(['a', 'b']);
  });
});
