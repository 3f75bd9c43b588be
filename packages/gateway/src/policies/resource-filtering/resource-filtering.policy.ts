import picomatch from 'picomatch';
import { z } from 'zod';
import { HttpMethod } from '@portico/model';
import { definePolicy, deny } from '../policy.js';

const Rule = z.object({
  /** Ant-style pattern on the path below the context path: `/orders/**`, `/users/*`. */
  pattern: z.string().min(1),
  /** Methods the rule applies to; empty means all. */
  methods: z.array(HttpMethod).default([]),
});

export const ResourceFilteringConfig = z.object({
  whitelist: z.array(Rule).default([]),
  blacklist: z.array(Rule).default([]),
});
export type ResourceFilteringConfig = z.infer<typeof ResourceFilteringConfig>;

const matchers = new WeakMap<object, (path: string) => boolean>();

function matches(rule: z.infer<typeof Rule>, method: string, path: string): boolean {
  if (rule.methods.length > 0 && !rule.methods.includes(method as never)) return false;
  let m = matchers.get(rule);
  if (!m) {
    const pattern = rule.pattern.startsWith('/') ? rule.pattern : `/${rule.pattern}`;
    m = picomatch(pattern, { dot: true });
    matchers.set(rule, m);
  }
  return m(path);
}

export const resourceFiltering = definePolicy({
  id: 'resource-filtering',
  name: 'Resource filtering',
  description: 'Allows (whitelist) or forbids (blacklist) paths, by Ant pattern and method.',
  configSchema: ResourceFilteringConfig,
  writesNoInputIntoHeaders: true,
  onRequest(ctx, config) {
    const { method, pathInfo } = ctx.request;
    const path = pathInfo || '/';
    if (config.whitelist.length > 0 && !config.whitelist.some((r) => matches(r, method, path))) {
      return deny(403, 'RESOURCE_FILTERING_FORBIDDEN', `You're not allowed to access this resource`);
    }
    if (config.blacklist.some((r) => matches(r, method, path))) {
      return deny(403, 'RESOURCE_FILTERING_FORBIDDEN', `You're not allowed to access this resource`);
    }
  },
});
