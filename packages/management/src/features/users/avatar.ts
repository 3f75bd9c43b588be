import type { UserRow } from '@portico/storage';
import { invalidField } from '@portico/model';

/** Pictures are images of at most 1 MB, as data URLs; SVG is refused (it may carry scripts). */
export const MAX_PICTURE_BYTES = 1024 * 1024;
const PICTURE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];
const DATA_URL = /^data:(image\/[a-z+.-]+);base64,([A-Za-z0-9+/=\s]+)$/;

/** Checks a picture data URL; 400 naming the field when it is not an accepted image. */
export function validatePicture(field: string, dataUrl: string): string {
  const match = DATA_URL.exec(dataUrl);
  if (!match) throw invalidField(field, 'must be a base64 image data URL');
  if (!PICTURE_TYPES.includes(match[1]!)) throw invalidField(field, 'must be a PNG, JPEG, GIF or WebP image');
  const bytes = Buffer.from(match[2]!, 'base64');
  if (bytes.length > MAX_PICTURE_BYTES) throw invalidField(field, 'image is larger than 1 MB');
  if (!looksLike(match[1]!, bytes)) throw invalidField(field, 'content is not the declared image type');
  return dataUrl;
}

function looksLike(type: string, b: Buffer): boolean {
  switch (type) {
    case 'image/png':
      return b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    case 'image/jpeg':
      return b[0] === 0xff && b[1] === 0xd8;
    case 'image/gif':
      return b.subarray(0, 4).toString('latin1') === 'GIF8';
    default:
      return (
        b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP'
      );
  }
}

/** The picture bytes of a user, or a generated SVG with the user's initials. */
export function avatarOf(user: UserRow): { type: string; body: Buffer } {
  const match = user.picture ? DATA_URL.exec(user.picture) : null;
  if (match) return { type: match[1]!, body: Buffer.from(match[2]!, 'base64') };
  const initials =
    ((user.firstname?.[0] ?? '') + (user.lastname?.[0] ?? '')).toUpperCase() ||
    user.source_id.slice(0, 2).toUpperCase();
  const hue = [...user.id].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 360, 0);
  const safe = initials.replace(/[^\p{L}\p{N}]/gu, '');
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="80" height="80" viewBox="0 0 80 80">` +
    `<rect width="80" height="80" rx="40" fill="hsl(${hue},45%,45%)"/>` +
    `<text x="40" y="50" font-family="sans-serif" font-size="30" fill="#fff" text-anchor="middle">${safe}</text></svg>`;
  return { type: 'image/svg+xml', body: Buffer.from(svg) };
}
