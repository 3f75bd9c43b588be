import type { Paths, PolicyStep } from '@portico/model';
import { policyOfStep } from '@portico/model';
import type { JsonObject } from '../../shared/ui/json-schema-form';

/** The rules of the design screens (console-apis.md 5, "Policy paths" and "Properties"; 9). */
export const POLICY_DESCRIPTION_MAX = 500;
export const PROPERTY_VALUE_MAX = 160;
/** Policy methods: the endpoint methods plus OPTIONS and CONNECT (section 9). */
export const POLICY_METHODS = [
  'GET',
  'POST',
  'PUT',
  'DELETE',
  'HEAD',
  'PATCH',
  'OPTIONS',
  'TRACE',
  'CONNECT',
];
export const DYNAMIC_UNITS = ['SECONDS', 'MINUTES', 'HOURS'] as const;

/** A path without its trailing slashes (`/a/` is `/a`), `/` staying `/`. */
export function normalizePath(path: string): string {
  const trimmed = path.trim().replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

/** Two paths that collide have one key: parameters (`:id`) written alike, trailing slashes dropped. */
export const pathKey = (path: string) => normalizePath(path).replace(/:[^/]+/g, ':');

export type PathProblem = 'required' | 'slash' | 'duplicate';

/** Why `path` cannot be added next to `existing` (policy paths and path mappings share the rules). */
export function pathProblem(existing: readonly string[], path: string): PathProblem | undefined {
  if (!path.trim()) return 'required';
  if (!path.trim().startsWith('/')) return 'slash';
  const key = pathKey(path);
  return existing.some((p) => pathKey(p) === key) ? 'duplicate' : undefined;
}

/** One policy of a path as the screen edits it; `key` identifies it while it moves. */
export interface PolicyEntry {
  key: string;
  policy: string;
  methods: string[];
  enabled: boolean;
  description: string;
  configuration: JsonObject;
}

let counter = 0;
export const newEntryKey = () => `step-${(counter++).toString(36)}`;

const asObject = (value: unknown): JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : {};

/** The wire steps (`{ methods, enabled, description, "<policy>": {...} }`) as entries. */
export function entriesOf(steps: readonly PolicyStep[]): PolicyEntry[] {
  return steps.flatMap((step) => {
    const found = policyOfStep(step);
    if (!found) return [];
    return [
      {
        key: newEntryKey(),
        policy: found.policy,
        methods: [...(step.methods ?? [])],
        enabled: step.enabled !== false,
        description: step.description ?? '',
        configuration: asObject(found.configuration),
      },
    ];
  });
}

/** Entries back to wire steps, in their order. */
export function stepsOf(entries: readonly PolicyEntry[]): PolicyStep[] {
  return entries.map((e) => ({
    methods: e.methods as PolicyStep['methods'],
    enabled: e.enabled,
    ...(e.description ? { description: e.description } : {}),
    [e.policy]: e.configuration,
  }));
}

export type EditedPaths = Record<string, PolicyEntry[]>;

export const editedPathsOf = (paths: Paths): EditedPaths =>
  Object.fromEntries(Object.entries(paths).map(([path, steps]) => [path, entriesOf(steps)]));

export const pathsOf = (edited: EditedPaths): Paths =>
  Object.fromEntries(Object.entries(edited).map(([path, entries]) => [path, stepsOf(entries)]));

/** A new path, empty or with a copy of the root path's policies (new keys: they move on their own). */
export function addPath(edited: EditedPaths, path: string, copyFromRoot: boolean): EditedPaths {
  const root = copyFromRoot ? (edited['/'] ?? []) : [];
  return {
    ...edited,
    [path.trim()]: root.map((e) => ({ ...structuredClone(e), key: newEntryKey() })),
  };
}

/** Moves the entry at `from` to `to` (drag and drop, or the move buttons). */
export function moveEntry<T>(list: readonly T[], from: number, to: number): T[] {
  if (from === to || to < 0 || to >= list.length) return [...list];
  const next = [...list];
  const [moved] = next.splice(from, 1);
  next.splice(to, 0, moved as T);
  return next;
}

/** The paths listed root first, then alphabetically. */
export const sortedPaths = (edited: EditedPaths) =>
  Object.keys(edited).sort((a, b) => (a === '/' ? -1 : b === '/' ? 1 : a.localeCompare(b)));
