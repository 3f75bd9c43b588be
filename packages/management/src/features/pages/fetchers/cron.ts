/**
 * The next time of a cron expression: 5 fields (minute hour day-of-month month day-of-week) or 6
 * with seconds first (as Gravitee's `fetchCron`); each field `*`, a number, a range `a-b`, a list
 * `a,b` and steps `* /n` or `a-b/n`. Times are UTC. Undefined when the expression is invalid or
 * matches nothing within a year.
 */
const BOUNDS: [number, number][] = [
  [0, 59], // second
  [0, 59], // minute
  [0, 23], // hour
  [1, 31], // day of month
  [1, 12], // month
  [0, 7], // day of week (0 and 7: Sunday)
];

function parseField(text: string, [min, max]: [number, number]): Set<number> | undefined {
  const out = new Set<number>();
  for (const part of text.split(',')) {
    const m = /^(\*|\?|(\d+)(?:-(\d+))?)(?:\/(\d+))?$/.exec(part);
    if (!m) return undefined;
    const all = m[1] === '*' || m[1] === '?';
    const from = all ? min : Number(m[2]);
    const to = all ? max : m[3] !== undefined ? Number(m[3]) : m[4] !== undefined ? max : from;
    const step = m[4] !== undefined ? Number(m[4]) : 1;
    if (from < min || to > max || from > to || step < 1) return undefined;
    for (let v = from; v <= to; v += step) out.add(v);
  }
  return out;
}

export function parseCron(expression: string): Set<number>[] | undefined {
  const fields = expression.trim().split(/\s+/);
  if (fields.length !== 5 && fields.length !== 6) return undefined;
  const all = fields.length === 5 ? ['0', ...fields] : fields;
  const sets = all.map((f, i) => parseField(f, BOUNDS[i]!));
  if (sets.some((s) => s === undefined)) return undefined;
  const parsed = sets as Set<number>[];
  if (parsed[5]!.has(7)) parsed[5]!.add(0);
  return parsed;
}

export function nextCronTime(expression: string, after: number): number | undefined {
  const cron = parseCron(expression);
  if (!cron) return undefined;
  const [seconds, minutes, hours, days, months, weekdays] = cron as [
    Set<number>,
    Set<number>,
    Set<number>,
    Set<number>,
    Set<number>,
    Set<number>,
  ];
  const secondList = [...seconds].sort((a, b) => a - b);
  let t = Math.floor(after / 60_000) * 60_000;
  const limit = after + 366 * 24 * 3600 * 1000;
  while (t <= limit) {
    const d = new Date(t);
    if (!months.has(d.getUTCMonth() + 1)) {
      t = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
    } else if (!days.has(d.getUTCDate()) || !weekdays.has(d.getUTCDay())) {
      t = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1);
    } else if (!hours.has(d.getUTCHours())) {
      t = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCHours() + 1);
    } else if (!minutes.has(d.getUTCMinutes())) {
      t += 60_000;
    } else {
      const second = secondList.find((s) => t + s * 1000 > after);
      if (second !== undefined) return t + second * 1000;
      t += 60_000;
    }
  }
  return undefined;
}
