import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { staleEtag } from '@portico/model';

/** A strong entity tag of a version marker (updated_at, or a digest of the content). */
export function etagOf(version: string | number): string {
  return `"${createHash('sha1').update(String(version)).digest('base64url')}"`;
}

/** 412 when the request carries an If-Match that is not the current entity tag. */
export function assertIfMatch(request: FastifyRequest, current: string): void {
  const header = request.headers['if-match'];
  if (header === undefined) return;
  const presented = header.split(',').map((t) => t.trim().replace(/^W\//, ''));
  if (!presented.includes('*') && !presented.includes(current)) throw staleEtag();
}

export function sendEtag(reply: FastifyReply, etag: string): void {
  void reply.header('ETag', etag);
}
