import { randomUUID } from 'node:crypto';

/**
 * A request id: a UUID of version 7 (RFC 9562), whose first 48 bits are the time in milliseconds and
 * the rest random. Ids made later sort later, so the request table's primary key grows at its end
 * instead of at random places of its index, which keeps the writing of the records cheap.
 */
export function requestId(now: number): string {
  const time = now.toString(16).padStart(12, '0');
  // A version 4 UUID gives the random part and the variant bits: xxxxxxxx-xxxx-4xxx-Vxxx-xxxxxxxxxxxx.
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${randomUUID().slice(15)}`;
}
