/** The `status_history` table: every status a version had, in the order the changes committed. */
import { sql } from "../engine.ts";
import type { HistoryRecord } from "../records.ts";
import { historyFromRow, json } from "../row-mappers.ts";
import type { Tables } from "./types.ts";

const COLUMNS = "name, version, from_status, to_status, reason, evidence, at";

/** One history row: name, version, from, to, reason, evidence (JSON text). */
export const INSERT_HISTORY = sql(
  (d) => `INSERT INTO ${d.t.status_history} (name, version, from_status, to_status, reason, evidence, at)
     VALUES (?, ?, ?, ?, ?, ?, ${d.now})`,
);
const OF_VERSION = sql(
  (d) => `SELECT ${COLUMNS} FROM ${d.t.status_history} WHERE name = ? AND version = ? ORDER BY id`,
);
const LATEST = sql(
  (d) => `SELECT ${COLUMNS} FROM ${d.t.status_history}
     WHERE id IN (SELECT MAX(id) FROM ${d.t.status_history} GROUP BY name, version) ORDER BY name, version`,
);
const LAST_ACTIVATION = sql(
  (d) => `SELECT COALESCE(MAX(id), 0) AS id FROM ${d.t.status_history}
     WHERE name = ? AND version = ? AND to_status = 'active'`,
);

/** The history methods of RegistryData. */
export const historyMethods = {
  async getHistory(this: Tables, name: string, version: number): Promise<HistoryRecord[]> {
    return (await this.engine.rows(OF_VERSION(this.engine.dialect), [name, version])).map(historyFromRow);
  },
  async latestHistory(this: Tables): Promise<HistoryRecord[]> {
    return (await this.engine.rows(LATEST(this.engine.dialect))).map(historyFromRow);
  },
  /** The id of the history row of a version's last activation (0 when never active): the order of activations. */
  async lastActivation(this: Tables, name: string, version: number): Promise<number> {
    return Number((await this.engine.first(LAST_ACTIVATION(this.engine.dialect), [name, version]))?.["id"]);
  },
  async addHistory(this: Tables, h: Omit<HistoryRecord, "at">): Promise<void> {
    await this.engine.run(INSERT_HISTORY(this.engine.dialect), [
      h.name,
      h.version,
      h.from,
      h.to,
      h.reason,
      json(h.evidence),
    ]);
  },
};
