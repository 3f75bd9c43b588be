/** One change of an audit entry, as the diff shows it. */
export interface DiffLine {
  kind: 'added' | 'removed' | 'changed' | 'moved';
  /** The JSON Pointer as a readable path: `proxy › endpoints › 0 › target`. */
  path: string;
  value?: string;
  from?: string;
}

interface PatchOperation {
  op: string;
  path: string;
  value?: unknown;
  from?: string;
}

const readablePath = (pointer: string): string =>
  pointer === ''
    ? '/'
    : pointer
        .split('/')
        .slice(1)
        .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
        .join(' › ');

const show = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

/** The JSON Patch of an audit entry as diff lines (a patch that is not JSON: none). */
export function diffLines(patch: string | null): DiffLine[] {
  if (!patch) return [];
  let operations: unknown;
  try {
    operations = JSON.parse(patch);
  } catch {
    return [];
  }
  if (!Array.isArray(operations)) return [];
  return (operations as PatchOperation[]).flatMap((o): DiffLine[] => {
    const path = readablePath(o.path);
    switch (o.op) {
      case 'add':
        return [{ kind: 'added', path, value: show(o.value) }];
      case 'remove':
        return [{ kind: 'removed', path }];
      case 'replace':
        return [{ kind: 'changed', path, value: show(o.value) }];
      case 'move':
      case 'copy':
        return [{ kind: 'moved', path, from: readablePath(o.from ?? '') }];
      default:
        return [];
    }
  });
}
