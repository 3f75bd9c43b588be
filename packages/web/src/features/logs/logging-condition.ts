/**
 * The logging condition builder (console-apis.md 2.10, sections 5 and 9): conditions of the listed types,
 * combined with AND, written as the expression the gateways evaluate (`#request.method == 'POST' &&
 * #request.timestamp <= 1700000000000l`).
 */
export const LOGGING_MODES = ['NONE', 'CLIENT', 'PROXY', 'CLIENT_PROXY'] as const;
export type LoggingMode = (typeof LOGGING_MODES)[number];

export const CONDITION_TYPES = [
  'plan',
  'application',
  'request-header',
  'request-param',
  'request-method',
  'remote-address',
  'logging-duration',
  'logging-end-date',
] as const;
export type ConditionType = (typeof CONDITION_TYPES)[number];

export const CONDITION_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'] as const;
export const DURATION_UNITS = ['SECONDS', 'MINUTES', 'HOURS', 'DAYS'] as const;
export type DurationUnit = (typeof DURATION_UNITS)[number];

const UNIT_MS: Record<DurationUnit, number> = {
  SECONDS: 1000,
  MINUTES: 60_000,
  HOURS: 3_600_000,
  DAYS: 86_400_000,
};

export interface ConditionRow {
  type: ConditionType;
  /** The plan, application, header or parameter name, method or remote address. */
  key: string;
  /** The header or parameter value. */
  value: string;
  duration: number | '';
  unit: DurationUnit | '';
  /** End date, epoch ms. */
  end: number | null;
}

export const newConditionRow = (type: ConditionType): ConditionRow => ({
  type,
  key: type === 'request-method' ? 'GET' : '',
  value: '',
  duration: '',
  unit: type === 'logging-duration' ? 'MINUTES' : '',
  end: null,
});

export type ConditionProblem = 'required' | 'durationMin' | 'endPassed';

/** What is wrong with a condition row, per field (empty: valid). */
export function conditionProblems(row: ConditionRow, now: number): Partial<Record<string, ConditionProblem>> {
  const problems: Partial<Record<string, ConditionProblem>> = {};
  switch (row.type) {
    case 'request-header':
    case 'request-param':
      if (!row.key.trim()) problems.key = 'required';
      if (!row.value.trim()) problems.value = 'required';
      break;
    case 'logging-duration':
      if (row.duration === '') problems.duration = 'required';
      else if (!Number.isInteger(row.duration) || row.duration < 1) problems.duration = 'durationMin';
      if (!row.unit) problems.unit = 'required';
      break;
    case 'logging-end-date':
      if (row.end === null) problems.end = 'required';
      else if (row.end <= now) problems.end = 'endPassed';
      break;
    default:
      if (!row.key.trim()) problems.key = 'required';
  }
  return problems;
}

export const conditionsValid = (rows: readonly ConditionRow[], now: number) =>
  rows.length > 0 && rows.every((row) => Object.keys(conditionProblems(row, now)).length === 0);

/** A single-quoted expression string. */
const quoted = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** The expression of one condition; durations end `now` + the duration. */
export function conditionExpression(row: ConditionRow, now: number): string {
  switch (row.type) {
    case 'plan':
      return `#context.plan == ${quoted(row.key)}`;
    case 'application':
      return `#context.application == ${quoted(row.key)}`;
    case 'request-header':
      // Gateways see header names lowercase.
      return `#request.headers[${quoted(row.key.trim().toLowerCase())}] == ${quoted(row.value)}`;
    case 'request-param':
      return `#request.params[${quoted(row.key.trim())}] == ${quoted(row.value)}`;
    case 'request-method':
      return `#request.method == ${quoted(row.key)}`;
    case 'remote-address':
      return `#request.remoteAddress == ${quoted(row.key.trim())}`;
    case 'logging-duration':
      return `#request.timestamp <= ${now + Number(row.duration) * UNIT_MS[row.unit || 'MINUTES']}l`;
    case 'logging-end-date':
      return `#request.timestamp <= ${row.end ?? now}l`;
  }
}

/** The conditions joined with AND. */
export const buildCondition = (rows: readonly ConditionRow[], now: number) =>
  rows.map((row) => conditionExpression(row, now)).join(' && ');

const END = /#?request\.timestamp\s*<=?\s*(\d+)[lL]?/g;

/** The earliest end time a condition states (`#request.timestamp <= N`), if any. */
export function conditionEnd(condition: string | undefined): number | undefined {
  const ends = [...(condition ?? '').matchAll(END)].map((m) => Number(m[1]));
  return ends.length > 0 ? Math.min(...ends) : undefined;
}
