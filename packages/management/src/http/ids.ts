import { randomUUID } from 'node:crypto';

/** New entity id. */
export const newId = (): string => randomUUID();

/** Id made from a name, as Gravitee 1.x does for views, tags and tenants: `My View!` gives `my-view`. */
export const idFromName = (name: string): string =>
  name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '') || newId();
