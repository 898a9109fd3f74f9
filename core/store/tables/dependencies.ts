/**
 * What a version depends on: `dependencies` (the base tools it calls, with their fingerprints) and
 * `verified_definitions` (every base tool definition it was verified against).
 */

import type { Status } from "../../types.ts";
import { type Dialect, type Read, read, type SqlParam, sql } from "../engine.ts";
import {
  type DependencyRecord,
  type NewDefinition,
  type VerifiedDefinition,
  versionKey,
} from "../records.ts";
import { dependencyFromRow, verifiedDefinitionFromRow } from "../row-mappers.ts";
import type { Tables } from "./types.ts";

/** A query over one version, one tool's versions or all of them: one statement text for each. */
function perVersion(
  build: (d: Dialect, where: string) => string,
): (d: Dialect, name?: string, version?: number) => [string, SqlParam[]] {
  const all = sql((d) => build(d, ""));
  const ofName = sql((d) => build(d, " WHERE name = ?"));
  const ofVersion = sql((d) => build(d, " WHERE version = ?"));
  const ofBoth = sql((d) => build(d, " WHERE name = ? AND version = ?"));
  return (d, name, version) =>
    name === undefined
      ? version === undefined
        ? [all(d), []]
        : [ofVersion(d), [version]]
      : version === undefined
        ? [ofName(d), [name]]
        : [ofBoth(d), [name, version]];
}

const CLEAR = sql((d) => `DELETE FROM ${d.t.dependencies} WHERE name = ? AND version = ?`);
const ADD = sql(
  (d) =>
    `INSERT INTO ${d.t.dependencies} (name, version, base_tool, fingerprint, avoided) VALUES (?, ?, ?, ?, ?)`,
);
const DEPENDENCIES = perVersion(
  (d, where) => `SELECT name, version, base_tool, fingerprint, avoided FROM ${d.t.dependencies}${where}
     ORDER BY name, version, base_tool`,
);
const NOW = sql((d) => `SELECT ${d.now} AS at`);
// An unknown definition is SQL NULL (not the JSON text null), so a later one with its text fills it in.
const ADD_DEFINITION = sql(
  (
    d,
  ) => `INSERT INTO ${d.t.verified_definitions} AS v (name, version, base_tool, fingerprint, definition, verified_at)
     VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (name, version, base_tool, fingerprint)
     DO UPDATE SET definition = COALESCE(v.definition, excluded.definition), verified_at = excluded.verified_at`,
);
const DEFINITIONS = perVersion(
  (d, where) => `SELECT name, version, base_tool, fingerprint, definition, verified_at
     FROM ${d.t.verified_definitions}${where} ORDER BY name, version, base_tool, verified_at, fingerprint`,
);

/** Dependencies of one version, one tool's versions or every version. */
export function dependenciesRead(d: Dialect, name?: string, version?: number): Read<DependencyRecord[]> {
  const [text, params] = DEPENDENCIES(d, name, version);
  return { sql: text, params, map: (rows) => rows.map(dependencyFromRow) };
}

/** The definitions versions were verified against: one version's, one tool's or every one's. */
export function definitionsRead(d: Dialect, name?: string, version?: number): Read<VerifiedDefinition[]> {
  const [text, params] = DEFINITIONS(d, name, version);
  return { sql: text, params, map: (rows) => rows.map(verifiedDefinitionFromRow) };
}

const BASE_TOOLS = sql((d) => `SELECT DISTINCT base_tool FROM ${d.t.dependencies}`);

/** The base tools any version depends on. */
export function dependedOnRead(d: Dialect): Read<string[]> {
  return { sql: BASE_TOOLS(d), params: [], map: (rows) => rows.map((r) => String(r["base_tool"])) };
}

// A dependency is known when its tool's current fingerprint is one its version was verified against.
const UNKNOWN = sql(
  (d) => `SELECT DISTINCT dep.name, dep.version FROM ${d.t.dependencies} dep
     JOIN ${d.t.versions} v ON v.name = dep.name AND v.version = dep.version
     LEFT JOIN ${d.jsonPairs("?1")} cur ON cur.k = dep.base_tool
     WHERE ${d.anyOf("v.status", "?2", "text")} AND NOT dep.avoided AND (cur.v IS NULL OR NOT EXISTS (
       SELECT 1 FROM ${d.t.verified_definitions} k
       WHERE k.name = dep.name AND k.version = dep.version AND k.base_tool = dep.base_tool AND k.fingerprint = cur.v))`,
);

/**
 * The versions in `statuses` with a dependency whose current fingerprint (`current`: tool name → fingerprint; a
 * tool not in it is gone, or cannot be hashed) is not among those the version was verified against, as
 * `versionKey`s. One read, however many versions: the rest need no definition parsed.
 */
export function unknownDependenciesRead(
  d: Dialect,
  current: ReadonlyMap<string, string>,
  statuses: readonly Status[],
): Read<Set<string>> {
  return {
    sql: UNKNOWN(d),
    params: [JSON.stringify(Object.fromEntries(current)), statuses],
    map: (rows) =>
      new Set(rows.map((r) => versionKey({ name: String(r["name"]), version: Number(r["version"]) }))),
  };
}

/** The dependency and verified-definition methods of RegistryData. */
export const dependencyMethods = {
  /** Replaces the dependency rows of a version, in one transaction. */
  async setDependencies(
    this: Tables,
    name: string,
    version: number,
    deps: Omit<DependencyRecord, "name" | "version">[],
  ): Promise<void> {
    await this.engine.transaction(async (tx) => {
      await tx.run(CLEAR(tx.dialect), [name, version]);
      for (const d of deps)
        await tx.run(ADD(tx.dialect), [name, version, d.baseTool, d.fingerprint, d.avoided]);
    });
  },
  async getDependencies(this: Tables, name?: string, version?: number): Promise<DependencyRecord[]> {
    return read(this.engine, dependenciesRead(this.engine.dialect, name, version));
  },
  /** Adds definitions to a version's set, in one transaction; a known fingerprint gains its text if it had none. */
  async addVerifiedDefinitions(
    this: Tables,
    name: string,
    version: number,
    defs: readonly NewDefinition[],
  ): Promise<void> {
    if (defs.length === 0) return;
    await this.engine.transaction(async (tx) => {
      // One time for the whole set, so its definitions sort by fingerprint as they did when verified together.
      const at = String((await tx.first(NOW(tx.dialect)))?.["at"]);
      // One statement per definition, in order: a fingerprint given twice is one row.
      for (const d of defs) {
        await tx.run(ADD_DEFINITION(tx.dialect), [
          name,
          version,
          d.baseTool,
          d.fingerprint,
          d.definition === null ? null : JSON.stringify(d.definition),
          at,
        ]);
      }
    });
  },
  /** The definitions versions were verified against (one version's, or every one's), oldest verification first. */
  async verifiedDefinitions(this: Tables, name?: string, version?: number): Promise<VerifiedDefinition[]> {
    return read(this.engine, definitionsRead(this.engine.dialect, name, version));
  },
};
