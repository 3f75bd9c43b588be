import bcrypt from 'bcryptjs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PASSWORD_HASH_COST, Passwords } from './passwords.js';

describe('Passwords', () => {
  it('hashes with bcrypt at cost 10 unless told otherwise', async () => {
    const hash = await new Passwords().hash('s3cret');
    expect(DEFAULT_PASSWORD_HASH_COST).toBe(10);
    expect(bcrypt.getRounds(hash)).toBe(10);
    expect(hash).not.toContain('s3cret');
  });

  it('hashes with the configured cost and verifies hashes of any cost', async () => {
    const passwords = new Passwords(5);
    const hash = await passwords.hash('s3cret');
    expect(bcrypt.getRounds(hash)).toBe(5);
    expect(await passwords.verify('s3cret', hash)).toBe(true);
    expect(await passwords.verify('wrong', hash)).toBe(false);
    // A hash made before the cost changed still verifies.
    expect(await passwords.verify('older', await bcrypt.hash('older', 4))).toBe(true);
  });

  it('answers false without a hash (no such user), after comparing against a dummy one', async () => {
    const passwords = new Passwords(4);
    expect(await passwords.verify('anything', undefined)).toBe(false);
    expect(await passwords.verify('anything', null)).toBe(false);
  });

  it('refuses a cost outside 4 to 15', () => {
    for (const cost of [3, 16, 7.5]) expect(() => new Passwords(cost)).toThrow(/from 4 to 15/);
  });
});
