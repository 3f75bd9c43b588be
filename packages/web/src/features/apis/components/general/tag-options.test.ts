import { describe, expect, it } from 'vitest';
import { tagOptions } from './tag-options';

describe('sharding tags offered on an API', () => {
  it('disables the tags the user may not use, named after the tag', () => {
    const options = tagOptions(
      ['public'],
      [
        { id: 'public', name: 'Public' },
        { id: 'internal', name: 'Internal' },
      ],
      [],
    );
    expect(options).toEqual([
      { value: 'public', label: 'Public', disabled: false },
      { value: 'internal', label: 'Internal', disabled: true },
    ]);
  });

  it('keeps the tags already on the API, disabled when the user may not use them', () => {
    expect(tagOptions(['public'], undefined, ['legacy'])).toEqual([
      { value: 'public', label: 'public', disabled: false },
      { value: 'legacy', label: 'legacy', disabled: true },
    ]);
  });

  it('disables nothing while the usable tags are unknown', () => {
    expect(tagOptions(undefined, [{ id: 'a', name: 'A' }], []).map((o) => o.disabled)).toEqual([false]);
  });
});
