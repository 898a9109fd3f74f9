/** The `meta` table of the PostgreSQL registry: small cached values (e.g. the base tools an adapter last listed). */
import type { PostgresDatabase } from "./postgres-database.ts";

export async function getMeta(db: PostgresDatabase, key: string): Promise<string | null> {
  const row = await db.first("SELECT value FROM tooldistill.meta WHERE key = $1", [key]);
  return row === undefined ? null : String(row["value"]);
}

export async function setMeta(db: PostgresDatabase, key: string, value: string): Promise<void> {
  await db.run(
    "INSERT INTO tooldistill.meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
    [key, value],
  );
}
