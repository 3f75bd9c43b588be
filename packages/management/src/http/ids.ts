import { randomUUID } from 'node:crypto';

/** New entity id. */
export const newId = (): string => randomUUID();
