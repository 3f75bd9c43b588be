import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';

export const SESSION_COOKIE = 'Auth-Portico';
export const XSRF_HEADER = 'x-xsrf-token';

/** A verified session: the user and the session id that the XSRF token is bound to. */
export interface Session {
  userId: string;
  sessionId: string;
  expiresAt: number;
}

/** Signs and checks session tokens (HS256 JWT) and the XSRF tokens bound to them. */
export class SessionTokens {
  constructor(
    private readonly secret: Uint8Array,
    private readonly ttlSeconds: number,
  ) {}

  async issue(userId: string): Promise<{ token: string; session: Session }> {
    const sessionId = randomBytes(16).toString('base64url');
    const iat = Math.floor(Date.now() / 1000);
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(userId)
      .setJti(sessionId)
      .setIssuer('portico-management')
      .setIssuedAt(iat)
      .setExpirationTime(iat + this.ttlSeconds)
      .sign(this.secret);
    return { token, session: { userId, sessionId, expiresAt: (iat + this.ttlSeconds) * 1000 } };
  }

  /** The session of a token, or undefined when it is forged, expired or malformed. */
  async verify(token: string): Promise<Session | undefined> {
    try {
      const { payload } = await jwtVerify(token, this.secret, {
        algorithms: ['HS256'],
        issuer: 'portico-management',
      });
      if (!payload.sub || !payload.jti || !payload.exp) return undefined;
      return { userId: payload.sub, sessionId: payload.jti, expiresAt: payload.exp * 1000 };
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
