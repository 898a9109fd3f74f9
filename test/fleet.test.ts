/**
 * A fleet on one PostgreSQL registry (issue 15's acceptance): separate processes (test/support/fleet-worker.ts,
 * public API only) on one real database. A promotion in one process reaches another's `activeTools()` through
 * the change feed; twenty processes told of one schema change re-verify it once; sixteen proposals raced from
 * four processes get sixteen distinct numbers with no gap, in a store whose lifecycle invariants hold. Times
 * are reported (t.diagnostic), never asserted.
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { after, type TestContext, test } from "node:test";
import pg from "pg";
import { PROPOSE_TOOL_NAME, Sandbox, silentLogger, ToolDistill } from "../core/index.ts";
import { bookingRun, input, TOOL, travelWorld } from "./fakes/travel-world.ts";
import { pgServer } from "./registry-helpers.ts";
import type { FleetJob } from "./support/fleet-worker.ts";

const NAME = "book_cheapest_flight";
const WORKER = new URL("./support/fleet-worker.ts", import.meta.url).pathname;

const sandbox = new Sandbox({ poolSize: 1 });
after(() => sandbox.close());

/** One worker process: its JSON lines as they come, and a way to say go. */
interface Worker {
  child: ChildProcess;
  /** The next line with this event (lines are kept until asked for). */
  next(event: string): Promise<Record<string, unknown>>;
  go(): void;
}

function startWorker(t: TestContext, job: FleetJob): Worker {
  const child = spawn(process.execPath, [WORKER, JSON.stringify(job)], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (d) => {
    stderr += d;
  });
  const seen: Record<string, unknown>[] = [];
  const waiting: { event: string; resolve: (m: Record<string, unknown>) => void }[] = [];
  let failed: Error | null = null;
  const fail = (err: Error) => {
    failed = err;
    for (const w of waiting.splice(0)) w.resolve({ event: "failed", error: err.message });
  };
  createInterface({ input: child.stdout! }).on("line", (line) => {
    const message = JSON.parse(line) as Record<string, unknown>;
    const i = waiting.findIndex((w) => w.event === message["event"]);
    if (i >= 0) waiting.splice(i, 1)[0]!.resolve(message);
    else seen.push(message);
  });
  child.on("exit", (code) => {
    if (code !== 0) fail(new Error(`worker ${job.role} exited with ${code}: ${stderr}`));
  });
  t.after(() => {
    if (child.exitCode === null) child.kill();
  });
  return {
    child,
    next(event) {
      const i = seen.findIndex((m) => m["event"] === event);
      if (i >= 0) return Promise.resolve(seen.splice(i, 1)[0]!);
      if (failed) return Promise.reject(failed);
      return new Promise((resolve, reject) =>
        waiting.push({
          event,
          resolve: (m) => (m["event"] === "failed" ? reject(new Error(String(m["error"]))) : resolve(m)),
        }),
      );
    },
    go() {
      child.stdin?.write("go\n");
    },
  };
}

function exited(w: Worker): Promise<number | null> {
  if (w.child.exitCode !== null) return Promise.resolve(w.child.exitCode);
  return new Promise((resolve) => w.child.once("exit", resolve));
}

/** A ToolDistill in this process on `url`, with the travel tools. */
async function open(t: TestContext, url: string) {
  const world = travelWorld();
  const td = await ToolDistill.open({
    store: url,
    executor: world.executor,
    tools: world.tools,
    sandbox,
    logger: silentLogger,
    minCallsToDistill: 3,
    fallbackDistiller: false,
    storePoolSize: 2,
  });
  t.after(() => td.close());
  return td;
}

/** Records the travel source run and proposes the travel tool: `NAME` v1, verified. */
async function distil(t: TestContext, url: string) {
  const td = await open(t, url);
  const source = await bookingRun(td);
  const out = await source.execute(PROPOSE_TOOL_NAME, { code: TOOL, test_inputs: [input()] });
  assert.equal(out.content.split("\n")[0], `verified: ${NAME} v1`, out.content);
  await source.finish();
  return td;
}

/** Rows of the registry's tables, straight from the database. */
async function query<R>(t: TestContext, url: string, sql: string, params: unknown[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  t.after(() => client.end());
  return (await client.query(sql, params)).rows as R[];
}

test("a tool promoted in one process is offered by another process's activeTools()", async (t) => {
  const url = await (await pgServer()).createDatabase();
  const td = await distil(t, url);
  const watchers = [
    startWorker(t, { role: "watch", url, name: NAME }),
    startWorker(t, { role: "watch", url, name: NAME }),
  ];
  for (const w of watchers)
    assert.equal((await w.next("ready"))["offered"], false, "verified, not yet promoted");

  // Process clocks are the machine's one clock: delays are from the start of promote() (its commit is inside).
  const promoting = Date.now();
  await td.promote(NAME);
  const returned = Date.now() - promoting;
  const seen = await Promise.all(watchers.map((w) => w.next("seen")));
  assert.deepEqual(await Promise.all(watchers.map(exited)), [0, 0]);
  t.diagnostic(
    `offered in the other processes ${seen.map((s) => Number(s["at"]) - promoting).join(" ms, ")} ms after promote() began (it returned after ${returned} ms)`,
  );
});

test("twenty processes told of one schema change re-verify it once", async (t) => {
  const url = await (await pgServer()).createDatabase();
  const td = await distil(t, url);
  await td.promote(NAME);
  const before = (await td.store.getHistory(NAME, 1)).length;

  const workers = Array.from({ length: 20 }, () => startWorker(t, { role: "tool-updated", url }));
  const startedAt = Date.now();
  await Promise.all(workers.map((w) => w.next("ready")));
  t.diagnostic(`20 processes open after ${Date.now() - startedAt} ms`);
  const goAt = Date.now();
  for (const w of workers) w.go();
  const reports = await Promise.all(workers.map((w) => w.next("report")));
  t.diagnostic(`all 20 reports ${Date.now() - goAt} ms after go`);
  assert.ok(
    (await Promise.all(workers.map(exited))).every((c) => c === 0),
    "every worker ends",
  );

  // The store: flagged once, re-verified once, active again.
  const history = (await td.store.getHistory(NAME, 1)).slice(before);
  assert.deepEqual(
    history.map((h) => [h.from, h.to]),
    [
      ["active", "suspect"],
      ["suspect", "active"],
    ],
    JSON.stringify(history),
  );
  assert.match(history[1]!.reason, /re-verification after 'flights_search' changed passed/);
  const v = await td.store.getVersion(NAME, 1);
  assert.deepEqual([v?.status, v?.problems], ["active", []]);
  const known = await td.store.verifiedDefinitions(NAME, 1);
  assert.ok(
    known.some(
      (d) =>
        d.baseTool === "flights_search" &&
        JSON.stringify(d.definition?.input_schema.required).includes("channel"),
    ),
    "the changed definition joined the ones v1 was verified against",
  );

  // The processes: one re-verified; the others found it done, or nothing left to do.
  const entries = reports.flatMap((r) => r["changes"] as { reason: string }[]);
  const reverified = entries.filter((e) => /; re-verified: /.test(e.reason));
  assert.equal(reverified.length, 1, JSON.stringify(entries, null, 1));
  assert.match(reverified[0]!.reason, /re-verified: passed$/);
  t.diagnostic(
    `${entries.length} processes reported the change, ${entries.filter((e) => /already re-verified/.test(e.reason)).length} found it re-verified by another; ${20 - reports.filter((r) => (r["changes"] as unknown[]).length > 0).length} found nothing to do`,
  );
});

test("sixteen proposals raced from four processes get sixteen numbers, no gap, a consistent store", async (t) => {
  const url = await (await pgServer()).createDatabase();
  const workers = ["a", "b", "c", "d"].map((tag) => startWorker(t, { role: "propose", url, tag, count: 4 }));
  await Promise.all(workers.map((w) => w.next("ready")));
  const goAt = Date.now();
  for (const w of workers) w.go();
  const verdicts = (await Promise.all(workers.map((w) => w.next("verdicts")))).flatMap(
    (m) => m["lines"] as string[],
  );
  t.diagnostic(`16 verdicts ${Date.now() - goAt} ms after go`);
  assert.ok((await Promise.all(workers.map(exited))).every((c) => c === 0));

  const numbers = verdicts.map((line) => {
    const m = new RegExp(`^verified: ${NAME} v(\\d+)$`).exec(line);
    assert.ok(m, line);
    return Number(m[1]);
  });
  assert.deepEqual(
    [...numbers].sort((a, b) => a - b),
    Array.from({ length: 16 }, (_, i) => i + 1),
  );

  const versions = await query<{ version: number; status: string; code: string }>(
    t,
    url,
    "SELECT version, status, code FROM tooldistill.versions WHERE name = $1 ORDER BY version",
    [NAME],
  );
  assert.deepEqual(
    versions.map((v) => v.version),
    Array.from({ length: 16 }, (_, i) => i + 1),
  );
  assert.equal(new Set(versions.map((v) => v.code)).size, 16, "each number holds its own proposal");
  assert.ok(versions.filter((v) => v.status === "active").length <= 1, "one active version at most");
  // Every version's last history row is its status; every proposal a draft first.
  const history = await query<{ version: number; from_status: string; to_status: string }>(
    t,
    url,
    "SELECT version, from_status, to_status FROM tooldistill.status_history WHERE name = $1 ORDER BY id",
    [NAME],
  );
  for (const v of versions) {
    const own = history.filter((h) => h.version === v.version);
    assert.equal(own[0]?.to_status, "draft", `v${v.version} starts as a draft`);
    assert.equal(own.at(-1)?.to_status, v.status, `v${v.version}'s history ends in its status`);
    for (let i = 1; i < own.length; i++) assert.equal(own[i]!.from_status, own[i - 1]!.to_status);
  }
  // One more process promotes the newest: the store still has one active version.
  const td = await open(t, url);
  await td.promote(NAME, { version: 16 });
  const active = await query<{ version: number }>(
    t,
    url,
    "SELECT version FROM tooldistill.versions WHERE name = $1 AND status = 'active'",
    [NAME],
  );
  assert.deepEqual(
    active.map((a) => a.version),
    [16],
  );
});
