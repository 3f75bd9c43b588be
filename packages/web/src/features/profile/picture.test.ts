import { describe, expect, it } from 'vitest';
import { MAX_PICTURE_BYTES, pictureProblem } from './picture';

describe('profile pictures', () => {
  it('are PNG, JPEG, GIF or WebP images', () => {
    for (const type of ['image/png', 'image/jpeg', 'image/gif', 'image/webp']) {
      expect(pictureProblem({ type, size: 10 })).toBeUndefined();
    }
    expect(pictureProblem({ type: 'image/svg+xml', size: 10 })).toBe('type');
    expect(pictureProblem({ type: 'application/pdf', size: 10 })).toBe('type');
  });

  it('of at most 1 MB', () => {
    expect(MAX_PICTURE_BYTES).toBe(1024 * 1024);
    expect(pictureProblem({ type: 'image/png', size: MAX_PICTURE_BYTES })).toBeUndefined();
    expect(pictureProblem({ type: 'image/png', size: MAX_PICTURE_BYTES + 1 })).toBe('size');
  });
});
