/**
 * Reaching a PostgreSQL registry: `pg` (node-postgres) loaded on first use so SQLite users never load it, connections configured to give rows the shape the SQLite store gives (JSON as
 * its text, times as ISO text, big integers as numbers), and PostgreSQL's failures turned into DistillErrors that
 * name the setting and what to do. The `store:` URL itself is read by store-url.ts, which engine-neutral code
 * imports. Only the postgres/ modules import `pg`.
 */
import type { ClientConfig, PoolConfig } from "pg";
import { DistillError, errorMessage } from "../../errors.ts";
import type { StoreUrl } from "../store-url.ts";

export type Pg = typeof import("pg").default;

let loaded: Pg | undefined;

/** node-postgres, loaded once on first use. */
export async function loadPg(): Promise<Pg> {
  if (loaded) return loaded;
  try {
    loaded = (await import("pg")).default;
  } catch (err) {
    throw new DistillError(
      "STORE",
      `a PostgreSQL store needs the \`pg\` package, which could not be loaded (${errorMessage(err)}): install it beside tooldistill (npm install pg), or use a folder as the store (store: in tooldistill.yaml).`,
      { cause: err },
    );
  }
  return loaded;
}

const OID = { int8: 20, json: 114, jsonb: 3802, timestamptz: 1184 };

/** Connection settings shared by the pool, the listener and the lock connections. */
export function clientConfig(pg: Pg, url: StoreUrl, connectTimeoutMs: number): ClientConfig {
  const builtin = pg.types.getTypeParser.bind(pg.types) as (oid: number, format?: string) => unknown;
  const timestamp = builtin(OID.timestamptz) as (text: string) => Date;
  return {
    connectionString: url.connectionString,
    application_name: "tooldistill",
    connectionTimeoutMillis: connectTimeoutMs,
    keepAlive: true,
    types: {
      getTypeParser: ((oid: number, format?: string) => {
        if (oid === OID.json || oid === OID.jsonb) return (text: string) => text;
        if (oid === OID.int8) return Number;
        if (oid === OID.timestamptz) return (text: string) => timestamp(text).toISOString();
        return builtin(oid, format);
      }) as never,
    },
  };
}

/** The pool's settings: idle connections let the process exit, as a SQLite store does. */
export function poolConfig(pg: Pg, url: StoreUrl, options: { poolSize: number; connectTimeoutMs: number }) {
  return {
    ...clientConfig(pg, url, options.connectTimeoutMs),
    max: options.poolSize,
    allowExitOnIdle: true,
  } satisfies PoolConfig;
}

const UNREACHABLE = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ECONNRESET",
  "EPIPE",
  "ENOENT",
]);

/**
 * Turns a failure of PostgreSQL (or of reaching it) into the error people see: what happened to the store at
 * `where`, and what to do. A programming error (no SQLSTATE, no network code) is passed on as it is.
 */
export function explainPgError(err: unknown, where: string): unknown {
  if (err instanceof DistillError) return err;
  const e = err as { code?: unknown; message?: string; constraint?: string; detail?: string };
  const code = typeof e.code === "string" ? e.code : "";
  const message = e.message ?? String(err);
  const detail = e.detail ? `${message}; ${e.detail}` : message;
  const make = (c: "STORE" | "STORE_BUSY" | "TRANSITION" | "TOOL_FILE_CHANGED", text: string) =>
    new DistillError(c, text, { cause: err });
  const setting =
    "Check the URL (store: in tooldistill.yaml, or the environment variable it names, such as DATABASE_URL)";
  if (
    UNREACHABLE.has(code) ||
    /timeout expired|Connection terminated|connect ETIMEDOUT|server closed the connection/i.test(message)
  ) {
    return make(
      "STORE",
      `cannot reach the PostgreSQL server of the store ${where} (${message}). ${setting} and that the server is running and accepts connections from this machine.`,
    );
  }
  switch (code) {
    case "28P01":
    case "28000":
      return make(
        "STORE",
        `the PostgreSQL server of the store ${where} refused the login (${message}). ${setting}: the user and password, and that pg_hba.conf lets this user in from this machine.`,
      );
    case "3D000":
      return make(
        "STORE",
        `the database of the store ${where} does not exist (${message}): create it (createdb <name>, or CREATE DATABASE) and run the command again, or fix the URL (store: in tooldistill.yaml).`,
      );
    case "42501":
      return make(
        "STORE",
        `the database user of the store ${where} lacks a privilege (${message}): grant it CREATE on the database (for the first start, which creates the schema \`tooldistill\`) and USAGE and read/write on that schema's tables, or use a user that owns them.`,
      );
    case "53300":
    case "53400":
      return make(
        "STORE_BUSY",
        `the PostgreSQL server of the store ${where} has no connection to spare (${message}): lower the number of processes or the pool size, or raise max_connections on the server.`,
      );
    case "57P01":
    case "57P02":
    case "57P03":
    case "08000":
    case "08003":
    case "08006":
      return make(
        "STORE",
        `the PostgreSQL server of the store ${where} is not available (${message}): it is shutting down, starting or in recovery; run the command again when it is up.`,
      );
    case "40001":
    case "40P01":
    case "55P03":
    case "57014":
      return make(
        "STORE_BUSY",
        `the store ${where} could not finish a write because of concurrent work (${message}): run the command again.`,
      );
    case "23P01":
      return make(
        "TRANSITION",
        `the store ${where} refused a second active version of a tool (${detail}): another process activated one meanwhile. Run the command again.`,
      );
    case "23514":
      if (e.constraint === "versions_code_matches_hash") {
        return make(
          "TOOL_FILE_CHANGED",
          `the store ${where} refused a version whose code does not match its recorded hash (${detail}): the code was changed after verification.`,
        );
      }
      return make("STORE", `the store ${where} refused a write that breaks its rules (${detail}).`);
    case "23503":
    case "23505":
    case "23502":
      return make("STORE", `the store ${where} refused a write that breaks its rules (${detail}).`);
  }
  if (/^[0-9A-Z]{5}$/.test(code)) {
    return make("STORE", `the PostgreSQL store ${where} failed (${message}, SQLSTATE ${code}).`);
  }
  return err;
}
