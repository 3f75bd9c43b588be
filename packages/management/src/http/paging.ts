import { z } from 'zod';

/** `page` (1-based) and `size` query parameters of the paged lists. */
export const PageQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(1000).default(20),
});

export const toOffset = (page: number, size: number) => ({ offset: (page - 1) * size, limit: size });
