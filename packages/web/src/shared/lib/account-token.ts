import type { AccountTokenClaims, TokenProblem } from './jwt';
import { TokenDecodeError, decodeJwtPayload, isExpired } from './jwt';

/** What an account link (registration or password reset) says, or why it cannot be used. */
export interface AccountLink {
  claims: AccountTokenClaims;
  problem?: 'expired' | TokenProblem;
}

export function readAccountLink(token: string, now: number = Date.now()): AccountLink {
  try {
    const claims = decodeJwtPayload(token);
    return { claims, problem: isExpired(claims, now) ? 'expired' : undefined };
  } catch (error) {
    return { claims: {}, problem: error instanceof TokenDecodeError ? error.problem : 'parts' };
  }
}
