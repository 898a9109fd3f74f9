/**
 * The one list of columns a copy writes (core/store/transfer/transfer-columns.ts) against both engines' schemas
 * as their migrations leave them: a column a migration adds and the list lacks would be lost by every copy.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import pg from "pg";
import { SqliteRegistryStore } from "../core/internal.ts";
import { openRegistryStore } from "../core/store/registry-open.ts";
import { TRANSFER_COLUMNS } from "../core/store/transfer/transfer-columns.ts";
import { TRANSFER_ORDER } from "../core/store/transfer-rows.ts";
import { tempDir } from "./helpers.ts";
import { pgServer } from "./registry-helpers.ts";

/** Columns an engine keeps for its own machinery, which a copy does not carry (each with the reason). */
const ENGINE_ONLY: Record<"sqlite" | "postgres", Record<string, readonly string[]>> = {
  sqlite: {},
  postgres: {
    // The last seq given to a trace's calls (set past the copied calls by the import), and the order traces
    // were written in (a sequence's default, kept by writing the copied traces in their order).
    traces: ["last_call_seq", "seq"],
  },
};

/** The spec's columns per SQL table, as one engine has them (`code` is a tool file on SQLite). */
function specColumns(engine: "sqlite" | "postgres"): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const name of TRANSFER_ORDER) {
    const { table, columns } = TRANSFER_COLUMNS[name];
    const names = columns.filter(([, type]) => engine === "postgres" || type !== "code").map(([n]) => n);
    out.set(table, [...names, ...(ENGINE_ONLY[engine][table] ?? [])].sort());
  }
  return out;
}

test("every table a copy carries has, on SQLite, exactly the columns the list names", async (t) => {
  const store = SqliteRegistryStore.open(tempDir(t));
  t.after(() => store.close());
  for (const [table, columns] of specColumns("sqlite")) {
    const found = store.database
      .stmt(`SELECT name FROM pragma_table_info('${table}') ORDER BY name`)
      .all()
      .map((r) => String(r["name"]));
    assert.deepEqual(found, columns, table);
  }
});

test("every table a copy carries has, on PostgreSQL, exactly the columns the list names", async (t) => {
  const url = await (await pgServer()).createDatabase();
  await (await openRegistryStore(url)).close();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  t.after(() => client.end());
  for (const [table, columns] of specColumns("postgres")) {
    const { rows } = await client.query(
      "SELECT column_name FROM information_schema.columns WHERE table_schema = 'tooldistill' AND table_name = $1 ORDER BY column_name",
      [table],
    );
    assert.deepEqual(
      rows.map((r) => String(r.column_name)),
      columns,
      table,
    );
  }
});

test("every field of a table's record is in its transfer row: a field added to a record needs its column here", async (t) => {
  const store = SqliteRegistryStore.open(tempDir(t));
  t.after(() => store.close());
  await store.createTrace("t1", "task", "sdk");
  const call = await store.appendCall(
    { traceId: "t1", tool: "lookup", kind: "base", args: { a: 1 } },
    { output: 2 },
    1,
  );
  await store.createVersion({
    name: "tool_a",
    code: "export default 1;\n",
    description: "d",
    inputSchema: { type: "object" },
    testInputs: [],
    sourceTrace: "t1",
    reason: "test",
  });
  await store.setDependencies("tool_a", 1, [{ baseTool: "lookup", fingerprint: "fp", avoided: false }]);
  await store.addVerifiedDefinitions("tool_a", 1, [
    { baseTool: "lookup", fingerprint: "fp", definition: null },
  ]);
  await store.recordRun({
    name: "tool_a",
    version: 1,
    outcome: "ok",
    innerCalls: 1,
    traceId: "t1",
    callId: call,
  });
  await store.recordBaseHealth("lookup", false, "down");
  await store.setMeta("k", "v");
  await store.sessionSpan("s1");
  const rows: Record<string, Record<string, unknown>> = {};
  for await (const batch of store.exportRegistry())
    rows[batch.table] = batch.rows[0] as unknown as Record<string, unknown>;
  const records: Record<string, object> = {
    traces: { ...(await store.getTrace("t1")), ...(await store.getTraceFlags("t1")) },
    calls: (await store.getCalls("t1"))[0]!,
    versions: (await store.getVersion("tool_a", 1))!,
    history: (await store.getHistory("tool_a", 1))[0]!,
    dependencies: (await store.getDependencies("tool_a", 1))[0]!,
    runStats: await store.getRunStats("tool_a", 1),
    runs: (await store.recentRuns("tool_a", 1, 1))[0]!,
    verifiedDefinitions: (await store.verifiedDefinitions("tool_a", 1))[0]!,
    baseHealth: (await store.baseHealth())[0]!,
    sessions: await store.sessionSpan("s1"),
  };
  for (const [table, record] of Object.entries(records)) {
    const row = rows[table];
    assert.ok(row, `${table}: exported`);
    for (const field of Object.keys(record))
      assert.ok(field in row, `${table}.${field} is not in its transfer row`);
  }
});
