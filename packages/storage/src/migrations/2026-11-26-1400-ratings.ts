import type { Kysely } from 'kysely';

/**
 * Ratings of APIs (issue 14, item 4): one rating per user and API (a rate of 1 to 5 stars, a title and
 * a comment), and the answers written to a rating. Both go with their API, answers with their rating.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('ratings')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('api_id', 'text', (c) => c.notNull().references('apis.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('rate', 'integer', (c) => c.notNull())
    .addColumn('title', 'text')
    .addColumn('comment', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('ratings_api_user', ['api_id', 'user_id'])
    .execute();
  await db.schema
    .createIndex('ratings_api_created')
    .on('ratings')
    .columns(['api_id', 'created_at'])
    .execute();
  await db.schema
    .createTable('rating_answers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('rating_id', 'text', (c) => c.notNull().references('ratings.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('comment', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('rating_answers_rating')
    .on('rating_answers')
    .columns(['rating_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('rating_answers').ifExists().execute();
  await db.schema.dropTable('ratings').ifExists().execute();
}
