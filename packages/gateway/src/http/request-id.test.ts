import { describe, expect, it } from 'vitest';
import { requestId } from './request-id.js';

describe('request ids', () => {
  it('are version 7 UUIDs carrying the time', () => {
    const at = Date.UTC(2026, 10, 21, 8, 30);
    const id = requestId(at);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(parseInt(id.slice(0, 8) + id.slice(9, 13), 16)).toBe(at);
  });

  it('sort by time and never repeat', () => {
    const ids = Array.from({ length: 2000 }, (_, i) => requestId(1_790_000_000_000 + Math.floor(i / 100)));
    expect(new Set(ids).size).toBe(ids.length);
    const times = ids.map((id) => id.slice(0, 13));
    expect([...times].sort()).toEqual(times);
  });

  it('carry the time they are given, whichever came before', () => {
    const times = [1_790_000_000_000, 1_790_000_000_001, 1_790_000_000_000, 0, 1_790_000_000_001];
    for (const at of times) expect(parseInt(requestId(at).slice(0, 13).replace('-', ''), 16)).toBe(at);
  });
});
