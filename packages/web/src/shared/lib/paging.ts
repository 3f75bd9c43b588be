/** The paged result of the management API: `data`, `metadata`, `page`. */
export interface Page<T> {
  data: T[];
  metadata: Record<string, Record<string, unknown>>;
  page: { current: number; size: number; per_page: number; total_pages: number; total_elements: number };
}
