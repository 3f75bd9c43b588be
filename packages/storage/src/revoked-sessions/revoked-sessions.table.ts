/** A session id (the JWT id) ended by a logout, kept until the token would have expired. */
export interface RevokedSessionTable {
  id: string;
  expires_at: number;
}
