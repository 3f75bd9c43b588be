import type http from 'node:http';
import { describe, expect, it } from 'vitest';
import { InFlight } from './drain.js';

const response = (name: string) => ({ name }) as unknown as http.ServerResponse;
const names = (list: InFlight) => [...list].map((res) => (res as unknown as { name: string }).name);

describe('the responses in flight of a draining server', () => {
  it('lists what came and has not left, whichever leaves first, last or in between', () => {
    const list = new InFlight();
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map(response);
    for (const res of [a!, b!, c!, d!]) list.add(res);
    expect(list.size).toBe(4);
    list.delete(b!); // in between
    expect(names(list)).toEqual(['d', 'c', 'a']);
    list.delete(d!); // the newest
    list.delete(a!); // the oldest
    expect(names(list)).toEqual(['c']);
    list.delete(a!); // twice: nothing changes
    expect(list.size).toBe(1);
    list.delete(c!);
    expect(names(list)).toEqual([]);
    expect(list.size).toBe(0);
  });

  it('leaves nothing on a response that left that could keep another one alive', () => {
    const list = new InFlight();
    const [a, b, c] = ['a', 'b', 'c'].map(response);
    for (const res of [a!, b!, c!]) list.add(res);
    list.delete(b!);
    // A response that left points at no other one (a collected one must not hold the living).
    const left = Object.getOwnPropertySymbols(b!).map(
      (key) => (b as unknown as Record<symbol, unknown>)[key],
    );
    expect(left.every((value) => value === undefined)).toBe(true);
    expect(names(list)).toEqual(['c', 'a']);
  });
});
