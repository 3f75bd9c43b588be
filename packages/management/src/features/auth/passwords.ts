import bcrypt from 'bcryptjs';

/** bcrypt's cost factor when none is configured: 2^10 rounds (Gravitee 1.x's and bcrypt's usual). */
export const DEFAULT_PASSWORD_HASH_COST = 10;
/** The range accepted for the cost (bcrypt's own minimum is 4; beyond 15 a sign-in takes seconds). */
export const PASSWORD_HASH_COST_RANGE = { min: 4, max: 15 } as const;

/**
 * Password hashing of the built-in user store (bcrypt). The cost applies to new hashes; a stored hash
 * carries its own cost, so changing the setting never locks anyone out.
 */
export class Passwords {
  private dummyHash: string | undefined;

  constructor(readonly cost: number = DEFAULT_PASSWORD_HASH_COST) {
    const { min, max } = PASSWORD_HASH_COST_RANGE;
    if (!Number.isInteger(cost) || cost < min || cost > max)
      throw new Error(`The password hash cost must be an integer from ${min} to ${max}, not ${cost}`);
  }

  hash(password: string): Promise<string> {
    return bcrypt.hash(password, this.cost);
  }

  /**
   * Whether `password` matches `hash`. Without a hash (no such user, or no password) the password is
   * compared against a dummy hash of the same cost, so that both failures take the same time.
   */
  async verify(password: string, hash: string | null | undefined): Promise<boolean> {
    if (hash) return bcrypt.compare(password, hash);
    this.dummyHash ??= await bcrypt.hash('portico-no-such-user', this.cost);
    await bcrypt.compare(password, this.dummyHash);
    return false;
  }
}
