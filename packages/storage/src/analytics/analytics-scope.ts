/**
 * Which requests a query reads: a time window, one of the three scopes (an API, an application, or
 * the platform restricted to the APIs a user may see) and the Lucene filter text.
 */
export interface AnalyticsScope {
  from: number;
  to: number;
  apiId?: string;
  applicationId?: string;
  /** Only these APIs (the platform of a user who is not an administrator); empty reads nothing. */
  apiIds?: readonly string[];
  /** The `query` filter (Lucene syntax). */
  filter?: string;
  /** Read the raw rows even where rollups could answer (tests and benchmarks compare the two). */
  raw?: boolean;
}

export type MetricType = 'avg' | 'min' | 'max' | 'sum' | 'count';

export interface GroupOrder {
  /** The numeric field ordered on, with its metric. */
  field: string;
  type: MetricType;
  ascending: boolean;
}
