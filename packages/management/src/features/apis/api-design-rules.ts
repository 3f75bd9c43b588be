import { RESOURCE_TYPES } from '@portico/gateway';
import type { ApiDefinition } from '@portico/model';
import { invalidField } from '@portico/model';

/** A path mapping without its trailing slashes (`/a/` is `/a`), `/` staying `/`. */
export function normalizePathMapping(path: string): string {
  const trimmed = path.trim().replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

/** Two mappings that collide have the same key: parameters written the same way, no trailing slash. */
export const mappingKey = (mapping: string) => normalizePathMapping(mapping).replace(/:[^/]+/g, ':');

/**
 * The design rules of an API definition that its shape alone does not say (console-apis.md 5,
 * "Resources" and "Policy paths"): a resource has a type the gateway knows and a configuration valid
 * for it; a path mapping starts with a slash and is not configured twice (parameters and trailing
 * slashes normalised). 400 naming the field on the first broken rule.
 */
export function validateDesign(definition: Pick<ApiDefinition, 'resources' | 'path_mappings'>): void {
  for (const [i, resource] of definition.resources.entries()) {
    if (!resource.name.trim()) throw invalidField(`resources.${i}.name`, 'The name is required.');
    const type = RESOURCE_TYPES.get(resource.type);
    if (!type) throw invalidField(`resources.${i}.type`, `Unknown resource type [${resource.type}]`);
    const result = type.configSchema.safeParse(resource.configuration ?? {});
    if (!result.success) {
      const issue = result.error.issues[0]!;
      const field = [`resources.${i}.configuration`, ...issue.path.map(String)].join('.');
      throw invalidField(field, issue.message);
    }
  }
  const seen = new Set<string>();
  for (const [i, mapping] of definition.path_mappings.entries()) {
    if (!mapping.trim()) throw invalidField(`path_mappings.${i}`, 'The path mapping is required.');
    if (!mapping.startsWith('/')) throw invalidField(`path_mappings.${i}`, 'The path must start with /');
    const key = mappingKey(mapping);
    if (seen.has(key)) throw invalidField(`path_mappings.${i}`, 'This path mapping is already configured.');
    seen.add(key);
  }
}
