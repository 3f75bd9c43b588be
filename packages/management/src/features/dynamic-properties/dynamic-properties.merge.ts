import type { Property } from '@portico/model';

/** Longest value of a property (section 9): a longer provided value is left out, and logged. */
export const PROPERTY_VALUE_MAX = 160;

export interface MergedProperties {
  properties: Property[];
  /** Keys whose provided value was too long to store. */
  skipped: string[];
}

/**
 * The API's properties after a provider's answer, as Gravitee's dynamic-property updater made them:
 * the properties the publisher wrote (not dynamic) stay and win over a provided key of the same
 * name; the dynamic ones are exactly the provided ones; sorted by key so that a mere change of order
 * is no change. Undefined when nothing changed (no update, no deployment).
 */
export function mergeDynamicProperties(
  current: readonly Property[],
  provided: Record<string, string>,
): MergedProperties | undefined {
  const userDefined = current.filter((p) => !p.dynamic);
  const userKeys = new Set(userDefined.map((p) => p.key));
  const skipped: string[] = [];
  const dynamic: Property[] = [];
  for (const [key, value] of Object.entries(provided)) {
    if (userKeys.has(key)) continue;
    if (value.length > PROPERTY_VALUE_MAX) {
      skipped.push(key);
      continue;
    }
    dynamic.push({ key, value, dynamic: true });
  }
  const properties = [...userDefined, ...dynamic].sort((a, b) => a.key.localeCompare(b.key));
  const sorted = [...current].sort((a, b) => a.key.localeCompare(b.key));
  const same =
    sorted.length === properties.length &&
    sorted.every(
      (p, i) =>
        p.key === properties[i]!.key &&
        p.value === properties[i]!.value &&
        p.dynamic === properties[i]!.dynamic,
    );
  return same ? undefined : { properties, skipped };
}
