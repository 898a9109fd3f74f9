/** The `meta` table: small cached values (e.g. the base tools an adapter last listed). */
import { sql } from "../engine.ts";
import type { Tables } from "./types.ts";

const GET = sql((d) => `SELECT value FROM ${d.t.meta} WHERE key = ?`);
const SET = sql(
  (d) =>
    `INSERT INTO ${d.t.meta} (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
);

/** The cached-value methods of RegistryData. */
export const bookkeepingMethods = {
  async getMeta(this: Tables, key: string): Promise<string | null> {
    const row = await this.engine.first(GET(this.engine.dialect), [key]);
    return row === undefined ? null : String(row["value"]);
  },
  async setMeta(this: Tables, key: string, value: string): Promise<void> {
    await this.engine.run(SET(this.engine.dialect), [key, value]);
  },
};
