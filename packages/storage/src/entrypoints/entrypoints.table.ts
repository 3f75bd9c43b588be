import type { Insertable, Selectable } from 'kysely';

/** An entrypoint: the URL the portal shows for APIs served by gateways of these sharding tags. */
export interface EntrypointTable {
  id: string;
  value: string;
  /** JSON list of tag ids. */
  tags: string;
}
export type EntrypointRow = Selectable<EntrypointTable>;
export type NewEntrypointRow = Insertable<EntrypointTable>;
