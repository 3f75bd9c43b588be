import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';

export const SESSION_COOKIE = 'Auth-Portico';
export const XSRF_HEADER = 'x-xsrf-token';

/** A verified session: the user and the session id that the XSRF token is bound to. */
export interface Session {
  userId: string;
  sessionId: string;
  expiresAt: number;
  /** When it was opened, in epoch milliseconds of the server's clock (ending sessions compares it). */
  issuedAt: number;
}

/** Signs and checks session tokens (HS256 JWT) and the XSRF tokens bound to them. */
export class SessionTokens {
  constructor(
    private readonly secret: Uint8Array,
    private readonly ttlSeconds: number,
    /** The clock that `sessions_valid_after` is written with. */
    private readonly now: () => number = Date.now,
  ) {}

  async issue(userId: string): Promise<{ token: string; session: Session }> {
    const sessionId = randomBytes(16).toString('base64url');
    const iat = Math.floor(Date.now() / 1000);
    const issuedAt = this.now();
    // `sat`: the opening instant in milliseconds (iat has seconds only), on the server's clock.
    const token = await new SignJWT({ sat: issuedAt })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(userId)
      .setJti(sessionId)
      .setIssuer('portico-management')
      .setIssuedAt(iat)
      .setExpirationTime(iat + this.ttlSeconds)
      .sign(this.secret);
    return { token, session: { userId, sessionId, expiresAt: (iat + this.ttlSeconds) * 1000, issuedAt } };
  }

  /** The session of a token, or undefined when it is forged, expired or malformed. */
  async verify(token: string): Promise<Session | undefined> {
    try {
      const { payload } = await jwtVerify(token, this.secret, {
        algorithms: ['HS256'],
        issuer: 'portico-management',
      });
      if (!payload.sub || !payload.jti || !payload.exp) return undefined;
      const issuedAt =
        typeof payload.sat === 'number'
          ? payload.sat
          : typeof payload.iat === 'number'
            ? payload.iat * 1000
            : 0;
      return { userId: payload.sub, sessionId: payload.jti, expiresAt: payload.exp * 1000, issuedAt };
    } catch {
      return undefined;
    }
  }

  /** The XSRF token of a session: an HMAC of its id, so any management process can check it. */
  xsrfToken(session: Session): string {
    return createHmac('sha256', this.secret).update(`xsrf:${session.sessionId}`).digest('base64url');
  }

  xsrfMatches(session: Session, presented: string | undefined): boolean {
    if (!presented) return false;
    const expected = Buffer.from(this.xsrfToken(session));
    const given = Buffer.from(presented);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}
