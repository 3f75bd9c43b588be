import { createHash } from 'node:crypto';
import type { Database } from '@portico/storage';
import { findMedia, insertMediaOnce } from '@portico/storage';
import { DomainError, ValidationError, notFound } from '@portico/model';
import type { Kysely } from 'kysely';
import type { SettingsService } from '../../settings/settings.service.js';

/** The largest upload whatever the setting says (the setting may only lower it). */
export const MEDIA_HARD_LIMIT = 10 * 1024 * 1024;
export const MEDIA_DISABLED = 'Media upload is disabled (portal.uploadMedia.enabled)';
/** The spec's message (console-apis.md 8), with the limit in bytes. */
export const mediaTooBig = (max: number) =>
  new ValidationError('file', `file uploaded to big, you're limited at ${max}`);
export const NOT_AN_IMAGE = 'Only PNG, JPEG, GIF and WebP images can be uploaded';

/** The image type of some bytes, from their signature (never from the name or the client's type). */
export function imageTypeOf(data: Buffer): string | undefined {
  if (
    data.length >= 8 &&
    data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  )
    return 'image/png';
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'image/jpeg';
  if (data.length >= 6 && /^GIF8[79]a$/.test(data.subarray(0, 6).toString('latin1'))) return 'image/gif';
  if (
    data.length >= 12 &&
    data.subarray(0, 4).toString('latin1') === 'RIFF' &&
    data.subarray(8, 12).toString('latin1') === 'WEBP'
  )
    return 'image/webp';
  return undefined;
}

/** The upload limit in force: the portal setting, within the hard limit. */
export async function mediaLimit(settings: SettingsService): Promise<{ enabled: boolean; max: number }> {
  const enabled = await settings.value<boolean>('portal.uploadMedia.enabled');
  const max = Math.min(await settings.value<number>('portal.uploadMedia.maxSizeInOctet'), MEDIA_HARD_LIMIT);
  return { enabled, max };
}

/**
 * Images uploaded for documentation, stored by the SHA-256 of their bytes per API (or the portal),
 * served back with the type their signature gives.
 */
export class MediaService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => number,
  ) {}

  /** Stores an image; answers its hash. */
  async store(referenceType: string, referenceId: string, fileName: string, data: Buffer): Promise<string> {
    const type = imageTypeOf(data);
    if (!type) throw new ValidationError('file', NOT_AN_IMAGE);
    const hash = createHash('sha256').update(data).digest('hex');
    await insertMediaOnce(this.db, {
      hash,
      reference_type: referenceType,
      reference_id: referenceId,
      file_name: fileName.slice(0, 255),
      content_type: type,
      size: data.length,
      data,
      created_at: this.now(),
    });
    return hash;
  }

  async read(referenceType: string, referenceId: string, hash: string) {
    const row = /^[0-9a-f]{64}$/.test(hash)
      ? await findMedia(this.db, referenceType, referenceId, hash)
      : undefined;
    if (!row) throw notFound('Media', hash);
    return row;
  }
}

export const mediaDisabled = () =>
  new DomainError(400, MEDIA_DISABLED, 'MEDIA_UPLOAD_DISABLED', { field: 'file' });
