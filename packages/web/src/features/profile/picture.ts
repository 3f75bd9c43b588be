/** Profile pictures: PNG, JPEG, GIF or WebP images of at most 1 MB (the server refuses anything else). */
export const MAX_PICTURE_BYTES = 1024 * 1024;
export const PICTURE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

export type PictureProblem = 'type' | 'size';

export function pictureProblem(file: { type: string; size: number }): PictureProblem | undefined {
  if (!(PICTURE_TYPES as readonly string[]).includes(file.type)) return 'type';
  if (file.size > MAX_PICTURE_BYTES) return 'size';
  return undefined;
}

/** The file as a data URL (what `PUT user` takes as `picture`). */
export function readAsDataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('The file can not be read'));
    reader.readAsDataURL(file);
  });
}
