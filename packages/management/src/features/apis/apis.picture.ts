import type { ApiRow } from '@portico/storage';

const DATA_URL = /^data:(image\/[a-z+.-]+);base64,([A-Za-z0-9+/=\s]+)$/;

/** The picture of an API: its own, or a generated SVG with the initials of its name. */
export function pictureOf(api: Pick<ApiRow, 'id' | 'name' | 'picture'>): { type: string; body: Buffer } {
  const match = api.picture ? DATA_URL.exec(api.picture) : null;
  if (match) return { type: match[1]!, body: Buffer.from(match[2]!, 'base64') };
  const initials =
    api.name
      .split(/\s+/)
      .filter(Boolean)
      .slice(0, 2)
      .map((w) => w[0]!)
      .join('')
      .toUpperCase()
      .replace(/[^\p{L}\p{N}]/gu, '') || 'API';
  const hue = [...api.id].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 360, 0);
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="80" height="80" viewBox="0 0 80 80">` +
    `<rect width="80" height="80" rx="12" fill="hsl(${hue},45%,45%)"/>` +
    `<text x="40" y="50" font-family="sans-serif" font-size="30" fill="#fff" text-anchor="middle">${initials}</text></svg>`;
  return { type: 'image/svg+xml', body: Buffer.from(svg) };
}
