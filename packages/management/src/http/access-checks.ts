import type { FastifyInstance, RouteOptions } from 'fastify';

const accessChecks = new WeakSet<object>();

/** Marks a route hook as an access check (session or permission): it runs before validation. */
export function accessCheck<T extends object>(hook: T): T {
  accessChecks.add(hook);
  return hook;
}

type Hooks = RouteOptions['preHandler'] | RouteOptions['preValidation'];
const asList = (hooks: Hooks): object[] =>
  hooks === undefined ? [] : Array.isArray(hooks) ? (hooks as object[]) : [hooks as object];

/**
 * Authentication and permissions are checked before validation, as Gravitee 1.x answers: an anonymous
 * invalid write is a 401, a signed-in caller without the permission a 403, and only then a 400. Routes
 * declare their checks as `preHandler` (the natural place in Fastify); this moves the marked ones to
 * `preValidation`, where the route parameters the checks read are already known. Must be installed
 * before the routes are added.
 */
export function installAccessChecksBeforeValidation(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const preHandlers = asList(route.preHandler);
    const checks = preHandlers.filter((hook) => accessChecks.has(hook));
    if (checks.length === 0) return;
    const rest = preHandlers.filter((hook) => !accessChecks.has(hook));
    route.preHandler = (rest.length > 0 ? rest : undefined) as RouteOptions['preHandler'];
    route.preValidation = [...checks, ...asList(route.preValidation)] as RouteOptions['preValidation'];
  });
}
