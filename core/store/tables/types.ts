/** What the registry's table methods (this folder) run over: the store's engine and the settings they read. */
import type { Engine } from "../engine.ts";

/** `this` of every table method: the registry (or a transaction's view of it) the method was called on. */
export interface Tables {
  readonly engine: Engine;
  /** Cap of one recorded output or error (max_output_bytes). */
  readonly maxOutputBytes: number;
  /** The folder whose `tools/` holds the versions' code (SQLite), or null when the code is in its row (PostgreSQL). */
  readonly toolRoot: string | null;
}
