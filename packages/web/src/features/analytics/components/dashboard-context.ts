import { createContext, useContext } from 'react';
import type { AnalyticsScope, Metadata } from '../api/analytics';
import type { Filter } from '../filters';

/** What every widget of a dashboard shares: scope, window, bucket, filter, and how to add one. */
export interface DashboardState {
  scope: AnalyticsScope;
  from: number;
  to: number;
  interval: number;
  /** The dashboard's `q` ('' for none). */
  q: string;
  addFilter: (filter: Filter) => void;
  /** Widgets tell the names of the keys they show (for the filter chips). */
  remember: (field: string, metadata: Metadata | undefined) => void;
}

export const DashboardContext = createContext<DashboardState | null>(null);

export function useDashboard(): DashboardState {
  const state = useContext(DashboardContext);
  if (!state) throw new Error('useDashboard outside of a dashboard');
  return state;
}

/** A widget's own query AND the dashboard's. */
export function combinedQuery(own: string | undefined, q: string): string | undefined {
  const parts = [own, q].filter((part): part is string => !!part && part.trim() !== '');
  if (parts.length <= 1) return parts[0];
  return parts.map((part) => `(${part})`).join(' AND ');
}
