/**
 * The request path, normalised once at the gateway's entrance, so that context paths, plan rules,
 * path policies and the backend all see one path: unreserved characters percent-decoded, empty
 * segments merged, `.` and `..` segments removed (RFC 3986, 5.2.4). A path that cannot be read one
 * way only is refused: an encoded `/`, `\` or NUL, a backslash, a malformed escape, a climb above `/`.
 */

/** Normalised path, and `floor`: the fewest leading segments a `..` ever left (Infinity: no `..`). */
export type NormalisedPath = { path: string; floor: number } | { error: string };

export const PATH_ERRORS = {
  notAbsolute: 'The request path must start with /.',
  encodedSeparator: 'The request path holds an encoded /, \\ or NUL (%2F, %5C, %00).',
  backslash: 'The request path holds a backslash (\\).',
  malformed: 'The request path holds a malformed percent-encoding.',
  climbs: 'The request path climbs above its context path.',
  dotParameters: 'The request path holds a dot segment with parameters (..;).',
} as const;

/** Anything but plain segments: an escape, a backslash, `//`, or a segment starting with `.`. */
const SUSPECT = /[%\\]|\/[./]/;

/** Whether the path needs the normaliser; ordinary paths pass this test without any allocation. */
export function needsNormalising(path: string): boolean {
  return path.charCodeAt(0) !== 47 /* / */ || SUSPECT.test(path);
}

const HEX = '0123456789ABCDEF';

function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 65 && c <= 70) return c - 55;
  if (c >= 97 && c <= 102) return c - 87;
  return -1;
}

/** ALPHA / DIGIT / "-" / "." / "_" / "~" */
function unreserved(c: number): boolean {
  return (
    (c >= 65 && c <= 90) ||
    (c >= 97 && c <= 122) ||
    (c >= 48 && c <= 57) ||
    c === 45 ||
    c === 46 ||
    c === 95 ||
    c === 126
  );
}

/** Decodes the escapes of unreserved characters and writes the others with upper-case digits. */
function decodeUnreserved(path: string): string | { error: string } {
  let out = '';
  for (let i = 0; i < path.length; i++) {
    const c = path.charCodeAt(i);
    if (c === 92) return { error: PATH_ERRORS.backslash };
    if (c !== 37) {
      out += path[i];
      continue;
    }
    const hi = hexValue(path.charCodeAt(i + 1));
    const lo = hexValue(path.charCodeAt(i + 2));
    if (hi < 0 || lo < 0) return { error: PATH_ERRORS.malformed };
    const value = hi * 16 + lo;
    if (value === 0x2f || value === 0x5c || value === 0) return { error: PATH_ERRORS.encodedSeparator };
    out += unreserved(value) ? String.fromCharCode(value) : `%${HEX[hi]}${HEX[lo]}`;
    i += 2;
  }
  return out;
}

/** The normalised path (see the file's comment), or why it is refused. */
export function normalisePath(raw: string): NormalisedPath {
  if (raw.charCodeAt(0) !== 47) return { error: PATH_ERRORS.notAbsolute };
  const decoded = decodeUnreserved(raw);
  if (typeof decoded !== 'string') return decoded;
  const segments = decoded.split('/');
  const last = segments[segments.length - 1];
  const trailingSlash = last === '' || last === '.' || last === '..';
  const kept: string[] = [];
  let floor = Infinity;
  for (let i = 1; i < segments.length; i++) {
    const segment = segments[i]!;
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (kept.length === 0) return { error: PATH_ERRORS.climbs };
      kept.pop();
      if (kept.length < floor) floor = kept.length;
      continue;
    }
    // `..;x` is `..` to some servlet containers: refused rather than guessed.
    if (segment.startsWith('..;') || segment.startsWith('.;')) return { error: PATH_ERRORS.dotParameters };
    kept.push(segment);
  }
  const path = `/${kept.join('/')}${trailingSlash && kept.length > 0 ? '/' : ''}`;
  return { path: path === raw ? raw : path, floor };
}

/** Segments of a context path: `/` has none, `/a/b` two. */
export function segmentCount(contextPath: string): number {
  let n = 0;
  for (let i = 0; i < contextPath.length; i++) if (contextPath.charCodeAt(i) === 47) n++;
  return contextPath === '/' ? 0 : n;
}
