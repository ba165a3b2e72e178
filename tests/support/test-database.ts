import pg from 'pg';

// The fresh, migrated databases live with the data layer, so its own tests make them too.
export { createTestDatabase, databaseUrl, dropTestDatabase } from '@pagewright/db/test-support';

/** Direct SQL for arranging states no API offers (an account disabled by an operator, an old password). */
export async function withDatabase<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Gives an item one saved action (a NAVIGATE row, as PUT /extractor/edit writes it). The dashboard
 * lists only items saved, validated or run: a test that needs an item listed without recording its
 * flow makes it saved this way.
 */
export async function saveOneAction(client: pg.Client, extractorId: string): Promise<void> {
  await client.query(
    `INSERT INTO "ExtractorAction" (id, "extractorId", sequence, type, "updatedAt") VALUES (gen_random_uuid(), $1, 10, 'NAVIGATE', now())`,
    [extractorId],
  );
}
