import { describe, expect, it } from 'vitest';
import { transformDocument } from './http-provider.js';

describe('transformation of a provider document (JSONata)', () => {
  const doc = {
    items: [
      { name: 'eu', host: 'eu.example', port: 443 },
      { name: 'us', host: null },
    ],
  };

  it('takes a list of {key, value}', async () => {
    expect(await transformDocument('items.{"key": name, "value": host}', doc)).toEqual({
      eu: 'eu.example',
      us: '',
    });
  });

  it('takes a single {key, value} as one property', async () => {
    expect(await transformDocument('items[0].{"key": name, "value": port}', doc)).toEqual({ eu: '443' });
  });

  it('takes an object of key -> value, objects kept as their JSON', async () => {
    expect(await transformDocument('{"first": items[0], "count": $count(items)}', doc)).toEqual({
      first: '{"name":"eu","host":"eu.example","port":443}',
      count: '2',
    });
  });

  it('refuses a result that is neither', async () => {
    await expect(transformDocument('"text"', doc)).rejects.toThrow(/must give/);
  });

  it('stops a transformation that never ends', async () => {
    await expect(transformDocument('($f := function($x) { $f($x + 1) }; $f(0))', doc)).rejects.toThrow(
      /nests deeper|ran longer/,
    );
  });
});
