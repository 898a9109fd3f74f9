/**
 * What the registry store suites share: one PostgreSQL server per test file (started on first use), a fresh
 * registry per test of either kind, a second handle on the same registry (another process's view: its own
 * connection or pool), and a patient wait for what another connection will see.
 */
import { join } from "node:path";
import { after, type TestContext } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import type { NewVersion } from "../core/store/records.ts";
import { openRegistryStore, type RegistryStoreOptions } from "../core/store/registry-open.ts";
import type { RegistryStore, StoreKind } from "../core/store/registry-store.ts";
import { silentLogger, type Verdict } from "../core/types.ts";
import { tempDir } from "./helpers.ts";
import { type PgServer, startPgServer } from "./support/pg-server.ts";

export const KINDS: readonly StoreKind[] = ["sqlite", "postgres"];

let server: Promise<PgServer> | undefined;

// Registered when a test file imports this module (node --test runs each file in its own process): the
// server of this file, if one was started, stops once all its tests are done.
after(async () => {
  if (server) await (await server).stop();
});

/** This test file's PostgreSQL server, started on first use. */
export function pgServer(): Promise<PgServer> {
  server ??= startPgServer();
  return server;
}

/** Where a new, empty registry of `kind` is: a new folder, or a new database. */
export async function freshLocation(t: TestContext, kind: StoreKind): Promise<string> {
  return kind === "sqlite" ? join(tempDir(t), "store") : (await pgServer()).createDatabase();
}

/** Opens the registry at `location`, closed when the test ends. */
export async function openStore(
  t: TestContext,
  location: string,
  options: RegistryStoreOptions = {},
): Promise<RegistryStore> {
  const store = await openRegistryStore(location, { logger: silentLogger, ...options });
  t.after(() => store.close());
  return store;
}

/** A new, empty registry of `kind`, with its location. */
export async function freshStore(
  t: TestContext,
  kind: StoreKind,
  options: RegistryStoreOptions = {},
): Promise<{ store: RegistryStore; location: string }> {
  const location = await freshLocation(t, kind);
  return { store: await openStore(t, location, options), location };
}

/** Polls `check` until it returns something other than undefined; fails after `ms`. */
export async function eventually<T>(what: string, check: () => T | undefined, ms = 15_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

/** A proposal of tool `name` (code differs by `tag`, so versions are told apart). */
export function proposal(name: string, tag = "1"): NewVersion {
  return {
    name,
    code: `// ${tag}\nexport default 1;\n`,
    description: `Does ${name}.`,
    inputSchema: { type: "object", properties: { customer: { type: "string" } } },
    testInputs: [{ customer: "ACME" }],
    sourceTrace: "t1",
    reason: "proposed",
  };
}

/** A passing verdict of `name` v`version`. */
export function verdict(name: string, version: number, status: Verdict["status"] = "verified"): Verdict {
  const ok = { ok: true, problems: [] };
  return {
    name,
    version,
    status,
    checks: { static: ok, replay: ok, efficiency: ok },
    calls: 2,
    baseline: 6,
    limit: 4,
    liveCalls: [],
    evidence: { callSites: null, literals: null, runs: null, writes: [], promotion: null },
  };
}
