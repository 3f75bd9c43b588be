import type { Kysely } from 'kysely';

/**
 * Groups (issue 12): the default API and application roles of a group's members, and pending
 * invitations of email addresses to join a group (turned into memberships when that email's account
 * comes to exist).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('groups').addColumn('api_role', 'text').execute();
  await db.schema.alterTable('groups').addColumn('application_role', 'text').execute();
  await db.schema
    .createTable('invitations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('reference_type', 'text', (c) => c.notNull())
    .addColumn('reference_id', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('api_role', 'text')
    .addColumn('application_role', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('invitations_reference_email', ['reference_type', 'reference_id', 'email'])
    .execute();
  await db.schema.createIndex('invitations_email').on('invitations').column('email').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('invitations').ifExists().execute();
  await db.schema.alterTable('groups').dropColumn('application_role').execute();
  await db.schema.alterTable('groups').dropColumn('api_role').execute();
}
