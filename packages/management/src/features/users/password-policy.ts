import { z } from 'zod';

/** New passwords (registration, reset link, own change): at least 8 characters. */
export const Password = z.string().min(8, 'must be at least 8 characters long').max(128);
