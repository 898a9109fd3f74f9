/**
 * A fleet on one registry (issue 15): 8 processes × 4 agents recording traces at once (bench/fleet-worker.ts),
 * on one PostgreSQL database (a server this bench starts, test/support/pg-server.ts) and, beside it, on one
 * SQLite file. Reported: calls per second sustained, p50/p99 of `trace.execute` and of the executor called
 * directly in the same processes, and whether every trace and call arrived. Then the read paths on a registry
 * with 10,000 traces and 200,000 calls against the same registry without them (the same 20 active tools in
 * both): `activeTools()`, opening a ToolDistill until `activeTools()` answers (the exposed set read from the
 * store, as every change notification re-reads it), and `list`'s store reads (every version with its run
 * counters). The large registries are filled by bulk SQL: that is setup, not measured.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { createInterface } from "node:readline";
import { DatabaseSync } from "node:sqlite";
import pg from "pg";
import { type RegistryStore, silentLogger, ToolDistill, type Verdict } from "../core/index.ts";
import { openRegistryStore } from "../core/store/registry-open.ts";
import { type PgServer, startPgServer } from "../test/support/pg-server.ts";
import type { FleetWorkerJob, FleetWorkerResult } from "./fleet-worker.ts";
import { type Benchmark, type Figure, figure, median } from "./types.ts";

const PROCESSES = 8;
const AGENTS = 4;
const TRACES = 8;
const CALLS = 25;
const POOL = 4;
const BIG = { traces: 10_000, calls: 200_000 };
const TOOLS = 20;
const GOAL_RATIO = 2;
const WORKER = new URL("./fleet-worker.ts", import.meta.url).pathname;

type Kind = "postgres" | "sqlite";

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function worker(job: FleetWorkerJob): { child: ChildProcess; lines: AsyncIterator<string> } {
  const child = spawn(process.execPath, [WORKER, JSON.stringify(job)], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  return { child, lines: createInterface({ input: child.stdout! })[Symbol.asyncIterator]() };
}

async function nextLine(lines: AsyncIterator<string>): Promise<Record<string, unknown>> {
  const line = await lines.next();
  if (line.done) throw new Error("a fleet worker ended early (see its stderr above)");
  return JSON.parse(line.value) as Record<string, unknown>;
}

interface FleetFigures {
  callsPerSecond: number;
  execute: number[];
  direct: number[];
  lost: string;
  warnings: string[];
  errors: number;
}

/** The write fleet on `location`: every process opened, then all told to go at once. */
async function writeFleet(location: string): Promise<FleetFigures> {
  // The schema is made once first, as a deployment's first start would.
  await (await openRegistryStore(location, { logger: silentLogger })).close();
  const job: FleetWorkerJob = {
    store: location,
    agents: AGENTS,
    traces: TRACES,
    calls: CALLS,
    poolSize: POOL,
  };
  const workers = Array.from({ length: PROCESSES }, () => worker(job));
  for (const w of workers) await nextLine(w.lines);
  for (const w of workers) w.child.stdin!.write("go\n");
  let results: FleetWorkerResult[];
  try {
    results = (await Promise.all(workers.map((w) => nextLine(w.lines)))) as unknown as FleetWorkerResult[];
  } finally {
    // Each worker exits after its report; one that failed is stopped.
    for (const w of workers) {
      w.child.stdin!.end();
      if (w.child.exitCode === null) w.child.kill();
    }
  }
  const start = Math.min(...results.map((r) => r.start));
  const end = Math.max(...results.map((r) => r.end));
  const expected = { traces: PROCESSES * AGENTS * TRACES, calls: PROCESSES * AGENTS * TRACES * CALLS };
  const store = await openRegistryStore(location, { logger: silentLogger, readOnly: true });
  let traces = 0;
  let calls = 0;
  let finished = 0;
  try {
    for (const t of await store.listTraces(expected.traces * 2)) {
      traces++;
      calls += await store.countTopLevelBaseCalls(t.id);
      if (t.outcome === true && t.endedAt !== null) finished++;
    }
  } finally {
    await store.close();
  }
  const ok = traces === expected.traces && calls === expected.calls && finished === expected.traces;
  return {
    callsPerSecond: expected.calls / ((end - start) / 1000),
    execute: results.flatMap((r) => r.execute),
    direct: results.flatMap((r) => r.direct),
    lost: `${ok ? "none" : "LOST"}: ${traces}/${expected.traces} traces (${finished} finished), ${calls}/${expected.calls} calls`,
    warnings: results.flatMap((r) => r.warnings),
    errors: results.reduce((n, r) => n + r.errors, 0),
  };
}

function verdict(name: string): Verdict {
  const ok = { ok: true, problems: [] };
  return {
    name,
    version: 1,
    status: "verified",
    checks: { static: ok, replay: ok, efficiency: ok },
    calls: 1,
    baseline: 4,
    limit: 3,
    liveCalls: [],
    evidence: { callSites: null, literals: null, runs: null, writes: [], promotion: null },
  };
}

/** A registry with TOOLS active distilled tools (each with a few runs), through the store's own API. */
async function withTools(location: string): Promise<void> {
  const store = await openRegistryStore(location, { logger: silentLogger });
  try {
    for (let i = 0; i < TOOLS; i++) {
      const name = `tool_${i}`;
      await store.createVersion({
        name,
        code: `// ${name}\nexport default 1;\n`,
        description: `Does ${name}.`,
        inputSchema: { type: "object", properties: {} },
        testInputs: [{}],
        sourceTrace: null,
        reason: "proposed",
      });
      await store.setVerification(name, 1, verdict(name), null);
      for (const [from, to] of [
        ["draft", "verified"],
        ["verified", "active"],
      ] as const) {
        await store.setStatus({ name, version: 1, expect: from, to, problems: [], reason: "bench" });
      }
      for (let r = 0; r < 3; r++) await store.recordRun({ name, version: 1, outcome: "ok", innerCalls: 1 });
    }
  } finally {
    await store.close();
  }
}

/** BIG.traces traces of BIG.calls / BIG.traces calls each (one in ten a distilled tool's), by bulk SQL. */
async function fill(kind: Kind, location: string): Promise<void> {
  const per = BIG.calls / BIG.traces;
  if (kind === "postgres") {
    const client = new pg.Client({ connectionString: location });
    await client.connect();
    try {
      await client.query(`INSERT INTO tooldistill.traces (id, task, source, outcome, started_at, ended_at, last_call_seq)
        SELECT 'bulk-' || g, 'bulk run ' || g, 'sdk', true, now() - g * interval '1 second', now(), ${per}
        FROM generate_series(1, ${BIG.traces}) g`);
      await client.query(`INSERT INTO tooldistill.calls (trace_id, seq, tool, kind, args, status, output, latency_ms, version)
        SELECT 'bulk-' || ((g - 1) / ${per} + 1), (g - 1) % ${per} + 1,
          CASE WHEN g % 10 = 0 THEN 'tool_' || (g % ${TOOLS}) ELSE 'noop' END,
          CASE WHEN g % 10 = 0 THEN 'distilled' ELSE 'base' END,
          '{"n":' || g || '}', 'ok', '{"ok":true}', 0.1, CASE WHEN g % 10 = 0 THEN 1 END
        FROM generate_series(1, ${BIG.calls}) g`);
      await client.query("ANALYZE");
    } finally {
      await client.end();
    }
    return;
  }
  const db = new DatabaseSync(join(location, "registry.db"));
  try {
    db.exec("PRAGMA busy_timeout = 10000");
    db.exec(`INSERT INTO traces (id, task, source, outcome, started_at, ended_at)
      WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < ${BIG.traces})
      SELECT 'bulk-' || n, 'bulk run ' || n, 'sdk', 1, strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-' || n || ' seconds'),
        strftime('%Y-%m-%dT%H:%M:%fZ', 'now') FROM g`);
    db.exec(`INSERT INTO calls (trace_id, seq, tool, kind, args, status, output, latency_ms, version, started_at)
      WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < ${BIG.calls})
      SELECT 'bulk-' || ((n - 1) / ${per} + 1), (n - 1) % ${per} + 1,
        CASE WHEN n % 10 = 0 THEN 'tool_' || (n % ${TOOLS}) ELSE 'noop' END,
        CASE WHEN n % 10 = 0 THEN 'distilled' ELSE 'base' END,
        '{"n":' || n || '}', 'ok', '{"ok":true}', 0.1, CASE WHEN n % 10 = 0 THEN 1 END,
        strftime('%Y-%m-%dT%H:%M:%fZ', 'now') FROM g`);
    db.exec("ANALYZE");
  } finally {
    db.close();
  }
}

/** Milliseconds of one run of `fn`. */
async function once(fn: () => Promise<unknown> | unknown): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

/** What `list` reads: every version, and each one's run counters. */
async function listReads(store: RegistryStore): Promise<number> {
  const versions = await store.listVersions();
  const stats = await Promise.all(versions.map((v) => store.getRunStats(v.name, v.version)));
  return stats.length;
}

type ReadFigures = Record<"activeTools" | "open" | "list", number>;

/**
 * The read paths of the registry at `base` and at `big`, measured in alternation (round by round, so a change of
 * the machine's load falls on both alike), median of the rounds.
 */
async function readPaths(base: string, big: string): Promise<{ base: ReadFigures; big: ReadFigures }> {
  const options = (store: string) => ({
    store,
    logger: silentLogger,
    fallbackDistiller: false,
    checkSchemasOnStart: false,
  });
  const tds = [await ToolDistill.open(options(base)), await ToolDistill.open(options(big))];
  const samples = tds.map(() => ({
    activeTools: [] as number[],
    open: [] as number[],
    list: [] as number[],
  }));
  try {
    for (const td of tds) {
      if (td.activeTools().length !== TOOLS) throw new Error(`expected ${TOOLS} active tools`);
    }
    for (let round = 0; round < 8; round++) {
      for (const [i, td] of tds.entries()) {
        const s = samples[i]!;
        s.activeTools.push(
          (await once(() => {
            for (let k = 0; k < 1000; k++) td.activeTools();
          })) / 1000,
        );
        s.open.push(
          await once(async () => {
            const other = await ToolDistill.open(options(i === 0 ? base : big));
            other.activeTools();
            await other.close();
          }),
        );
        for (let k = 0; k < 3; k++) s.list.push(await once(() => listReads(td.store)));
      }
    }
  } finally {
    for (const td of tds) await td.close();
  }
  // The first round warms up (JIT, statement caches, connections): left out.
  const figures = (s: (typeof samples)[number]): ReadFigures => ({
    activeTools: median(s.activeTools.slice(1)),
    open: median(s.open.slice(1)),
    list: median(s.list.slice(3)),
  });
  return { base: figures(samples[0]!), big: figures(samples[1]!) };
}

async function location(kind: Kind, server: PgServer, dir: string, name: string): Promise<string> {
  return kind === "postgres" ? server.createDatabase() : join(dir, name);
}

const fmt = (ms: number) => (ms < 1 ? `${(ms * 1000).toFixed(1)} µs` : `${ms.toFixed(2)} ms`);
const ratio = (big: number, base: number) => big / base;

export const fleet: Benchmark = {
  name: "fleet",
  description: `${PROCESSES} processes × ${AGENTS} agents recording ${TRACES} runs of ${CALLS} no-op calls each, on one PostgreSQL database and on one SQLite file; then read paths with ${BIG.traces} traces and ${BIG.calls} calls vs none (${TOOLS} active tools in both)`,
  async run() {
    const phases: string[] = [];
    async function phase<T>(what: string, fn: () => Promise<T>): Promise<T> {
      const t0 = performance.now();
      const value = await fn();
      phases.push(`${what} ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      return value;
    }
    const server = await phase("PostgreSQL start", startPgServer);
    const dir = mkdtempSync(join(tmpdir(), "td-bench-fleet-"));
    const rows: string[][] = [];
    const notes: string[] = [];
    let worst = 0;
    const figures: Figure[] = [];
    try {
      const writes: Partial<Record<Kind, FleetFigures>> = {};
      const reads: Partial<Record<Kind, { base: ReadFigures; big: ReadFigures }>> = {};
      for (const kind of ["postgres", "sqlite"] as const) {
        const fleetAt = await location(kind, server, dir, "fleet");
        writes[kind] = await phase(`${kind} fleet`, () => writeFleet(fleetAt));
        const base = await location(kind, server, dir, "base");
        const big = await location(kind, server, dir, "big");
        await phase(`${kind} fill`, async () => {
          for (const l of [base, big]) await withTools(l);
          await fill(kind, big);
        });
        reads[kind] = await phase(`${kind} reads`, () => readPaths(base, big));
      }
      const pgW = writes.postgres!;
      const liteW = writes.sqlite!;
      const both = (f: (w: FleetFigures) => string) => [f(pgW), f(liteW)];
      rows.push(["calls per second, sustained", ...both((w) => w.callsPerSecond.toFixed(0))]);
      figures.push(
        figure(
          "PostgreSQL fleet, calls/s (8 processes × 4 agents)",
          {
            value: pgW.callsPerSecond,
            floor: liteW.callsPerSecond,
            unit: "calls/s",
            basis: "the same fleet on one SQLite file",
          },
          0.4,
          "higher",
        ),
      );
      for (const p of [50, 99]) {
        rows.push([`trace.execute p${p}`, ...both((w) => fmt(percentile(w.execute, p)))]);
        rows.push([`executor directly p${p}`, ...both((w) => fmt(percentile(w.direct, p)))]);
        rows.push([
          `overhead p${p} (execute − direct)`,
          ...both((w) => fmt(percentile(w.execute, p) - percentile(w.direct, p))),
        ]);
      }
      rows.push(["error results / warnings", ...both((w) => `${w.errors} / ${w.warnings.length}`)]);
      rows.push(["nothing lost", ...both((w) => w.lost)]);
      for (const key of ["activeTools", "open", "list"] as const) {
        const label = {
          activeTools: "activeTools()",
          open: "open until activeTools() answers",
          list: "list (versions + run counters)",
        }[key];
        const cells = (["postgres", "sqlite"] as const).map((kind) => {
          const { base, big } = reads[kind]!;
          const r = ratio(big[key], base[key]);
          worst = Math.max(worst, r);
          return `${fmt(big[key])} vs ${fmt(base[key])} = ${r.toFixed(2)}×`;
        });
        rows.push([`${label}: large vs empty`, ...cells]);
      }
      for (const [kind, w] of Object.entries(writes)) {
        const sample = [...new Set(w.warnings.map((m) => m.slice(0, 160)))].slice(0, 3);
        for (const m of sample) notes.push(`${kind} warning: ${m}`);
      }
      notes.push(`phases: ${phases.join(", ")}`);
      notes.push(
        `PostgreSQL: pool of ${POOL} per process (store_pool_size) plus one LISTEN connection; SQLite: one WAL file, writers take turns (busy timeout).`,
      );
    } finally {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
    return {
      columns: ["measure", "PostgreSQL", "SQLite"],
      rows,
      goal: {
        text: `read paths with a large registry ≤ ${GOAL_RATIO}× an empty one`,
        met: worst <= GOAL_RATIO,
      },
      figures,
      notes,
    };
  },
};
