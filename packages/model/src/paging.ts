/** The paged result of the spec: `data`, `metadata`, `page`. */
export interface Page<T> {
  data: T[];
  metadata: Record<string, Record<string, unknown>>;
  page: { current: number; size: number; per_page: number; total_pages: number; total_elements: number };
}

export function toPage<T>(
  data: T[],
  current: number,
  perPage: number,
  total: number,
  metadata: Page<T>['metadata'] = {},
): Page<T> {
  return {
    data,
    metadata,
    page: {
      current,
      size: data.length,
      per_page: perPage,
      total_pages: perPage > 0 ? Math.ceil(total / perPage) : 0,
      total_elements: total,
    },
  };
}
