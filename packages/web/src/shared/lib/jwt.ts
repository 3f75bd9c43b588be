/** The claims the account links carry (registration and password reset tokens). */
export interface AccountTokenClaims {
  sub?: string;
  email?: string;
  firstname?: string;
  lastname?: string;
  /** Expiry, seconds since the epoch. */
  exp?: number;
  [claim: string]: unknown;
}

export type TokenProblem = 'parts' | 'base64' | 'json' | 'object';

/** A link whose token cannot be read; `problem` names what is wrong (the page translates it). */
export class TokenDecodeError extends Error {
  constructor(readonly problem: TokenProblem) {
    super(`The token can not be decoded (${problem})`);
    this.name = 'TokenDecodeError';
  }
}

/**
 * Decodes the payload of a JWT without verifying it (the server verifies it on use); the page only
 * prefills its form. Throws a TokenDecodeError saying what is wrong.
 */
export function decodeJwtPayload(token: string): AccountTokenClaims {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts[1]) throw new TokenDecodeError('parts');
  let json: string;
  try {
    const base64 = parts[1].replace(/-/g, '+').replace(/_/g, '/');
    const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
    const binary = atob(padded);
    json = new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
  } catch {
    throw new TokenDecodeError('base64');
  }
  let payload: unknown;
  try {
    payload = JSON.parse(json);
  } catch {
    throw new TokenDecodeError('json');
  }
  if (!payload || typeof payload !== 'object' || Array.isArray(payload)) {
    throw new TokenDecodeError('object');
  }
  return payload as AccountTokenClaims;
}

/** True when the token has an expiry in the past. */
export function isExpired(claims: AccountTokenClaims, now: number = Date.now()): boolean {
  return typeof claims.exp === 'number' && claims.exp * 1000 <= now;
}
