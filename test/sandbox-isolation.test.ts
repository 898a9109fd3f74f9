/**
 * A run's state is fresh however its instance was made ahead: nothing of an earlier run (its globals, what it left
 * on the heap, what it changed of the prelude and the intrinsics, the host's count of its calls) is there in a
 * later one, run after run and tool after tool, and the memory an instance leaves is zeroed before another gets
 * it. Each check is also run against a sandbox broken on purpose, to prove it sees a leak.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  breakMemoryZeroingForTest,
  dropEngineInstance,
  newEngineInstance,
  peekSpareMemoryForTest,
} from "../core/sandbox/quickjs-engine.ts";
import { Sandbox } from "../core/sandbox/sandbox.ts";
import { breakRunIsolationForTest } from "../core/sandbox/sandbox-workers.ts";
import type { SandboxOutcome } from "../core/sandbox/types.ts";
import { fakeHost, resultOf, toolSource } from "./sandbox-helpers.ts";

/**
 * A tool that reports every trace of an earlier run it finds, then leaves its own: a global, a property on
 * Object.prototype, on an intrinsic the prelude captured (JSON.stringify), on the prelude's own `call` and on
 * Date.prototype (the prelude replaces Date's constructor), and half a megabyte on the heap. Two base calls, so
 * the host's count of calls is visible too.
 */
function probe(tag: string): string {
  return toolSource(
    `    const g = globalThis as any;
    const seen: string[] = [];
    if (g.__leakGlobal !== undefined) seen.push("global " + g.__leakGlobal);
    if (({} as any).__leakProto !== undefined) seen.push("Object.prototype " + ({} as any).__leakProto);
    if ((JSON.stringify as any).__leak !== undefined) seen.push("JSON.stringify " + (JSON.stringify as any).__leak);
    if ((call as any).__leak !== undefined) seen.push("call " + (call as any).__leak);
    if ((Date.prototype as any).__leak !== undefined) seen.push("Date.prototype " + (Date.prototype as any).__leak);
    if (typeof g.__heap === "string") seen.push("heap " + g.__heap.slice(0, 16));
    const here = "${tag}-" + input.n;
    g.__leakGlobal = here;
    Object.defineProperty(Object.prototype, "__leakProto", { value: here, configurable: true, writable: true });
    (JSON.stringify as any).__leak = here;
    (call as any).__leak = here;
    (Date.prototype as any).__leak = here;
    g.__heap = (here + ":").repeat(50000);
    await call("echo", { n: input.n });
    await call("echo", { n: input.n });
    return seen;`,
  ).replace("test_tool", `probe_${tag}`);
}

/** Runs the two probes interleaved, `rounds` times each; every trace of an earlier run any of them found. */
async function tracesFound(pool: Sandbox, rounds: number): Promise<string[]> {
  const host = fakeHost();
  const found: string[] = [];
  for (let n = 0; n < rounds; n++) {
    for (const tag of ["a", "b"]) {
      const outcome: SandboxOutcome = await pool.run({
        source: probe(tag),
        input: { n },
        allow: ["echo"],
        call: host.call,
      });
      const seen = resultOf(outcome) as string[];
      found.push(...seen.map((s) => `run ${tag}-${n}: ${s}`));
      // The host's record starts afresh too: two calls each, numbered from the first.
      if (outcome.calls.length !== 2) found.push(`run ${tag}-${n}: ${outcome.calls.length} calls recorded`);
    }
  }
  return found;
}

describe("a run holds nothing of any earlier run", () => {
  test("run after run, tool after tool: no global, heap content, prelude or intrinsic change survives", async (t) => {
    // One spare, so consecutive runs go to the same workers and their instances are made ahead there.
    const pool = new Sandbox({ poolSize: 1 });
    t.after(() => pool.close());
    assert.deepEqual(await tracesFound(pool, 6), []);
    assert.ok(pool.stats().spawned >= 12, "each run had an instance of its own");
  });

  test("the probe sees the traces when runs share a context (broken on purpose)", async (t) => {
    breakRunIsolationForTest(true);
    // Workers read the flag when they start: every one this pool starts runs all its jobs in one context.
    const shared = new Sandbox({ poolSize: 1 });
    t.after(async () => {
      await shared.close();
      breakRunIsolationForTest(false);
    });
    const found = await tracesFound(shared, 3);
    for (const kind of ["global", "Object.prototype", "JSON.stringify", "call", "Date.prototype", "heap"]) {
      assert.ok(
        found.some((f) => f.includes(`: ${kind} `)),
        `a leak of ${kind} is seen:\n${found.join("\n")}`,
      );
    }
  });
});

describe("an instance's memory", () => {
  const marker = "isolation-marker-7f3a";

  /** Makes an instance that keeps `marker` on its heap, drops it, and reads the memory the next instance gets. */
  async function leftBehind(memoryMb: number): Promise<{ marker: boolean; nonZero: number }> {
    const first = await newEngineInstance(memoryMb);
    const ctx = first.quickjs.newRuntime().newContext();
    const kept = ctx.evalCode(`globalThis.kept = ${JSON.stringify(marker)}.repeat(4096); kept.length`);
    assert.equal(ctx.dump(ctx.unwrapResult(kept)), marker.length * 4096);
    dropEngineInstance(first);
    const memory = peekSpareMemoryForTest(memoryMb);
    assert.ok(memory, "the dropped instance's memory is kept for the next one");
    const bytes = new Uint8Array(memory);
    let nonZero = 0;
    for (const b of bytes) if (b !== 0) nonZero++;
    return { marker: Buffer.from(memory).includes(marker), nonZero };
  }

  test("is zeroed before another instance gets it; that instance sees nothing and works", async () => {
    // A cap no other test uses, so the spare read here is the one this test left.
    assert.deepEqual(await leftBehind(41), { marker: false, nonZero: 0 });
    const next = await newEngineInstance(41);
    assert.equal(peekSpareMemoryForTest(41), null, "the next instance took that memory");
    const ctx = next.quickjs.newRuntime().newContext();
    assert.equal(ctx.dump(ctx.unwrapResult(ctx.evalCode("typeof kept"))), "undefined");
    assert.equal(ctx.dump(ctx.unwrapResult(ctx.evalCode("[1, 2, 3].map((x) => x * 2).join()"))), "2,4,6");
    dropEngineInstance(next);
  });

  test("the check sees the marker when the zeroing is skipped (broken on purpose)", async (t) => {
    breakMemoryZeroingForTest(true);
    t.after(() => breakMemoryZeroingForTest(false));
    const left = await leftBehind(43);
    assert.equal(left.marker, true);
    assert.ok(left.nonZero > 0);
  });
});

describe("guest code scavenging memory", () => {
  /**
   * An outsider's way to read what an earlier run left in a reused memory: a buffer whose bytes are not cleared
   * (a plain typed array, a grown resizable ArrayBuffer, WebAssembly's memory) or a string built over
   * uninitialised space. The guest has no raw-memory view by any name or route, and the strings it can build hold
   * only what it wrote. The earlier run leaves a megabyte of U+00AB on the heap each time.
   */
  const FILL = toolSource(
    `    (globalThis as any).kept = "\\u00ab".repeat(1 << 20);
    return (globalThis as any).kept.length;`,
  );
  const SCAVENGE = toolSource(
    `    const g = globalThis as any;
    const views = ["ArrayBuffer", "SharedArrayBuffer", "Uint8Array", "DataView", "Atomics", "WebAssembly"];
    const present = views.filter((name) => typeof g[name] !== "undefined");
    // Every name reachable one step from a global value or its prototype, for a view reached another way.
    const reachable = new Set<string>();
    Object.getOwnPropertyNames(g).forEach((name) => {
      const value = g[name];
      if (value === null || (typeof value !== "object" && typeof value !== "function")) return;
      [value, Object.getPrototypeOf(value), value.prototype].forEach((o) => {
        if (o) Object.getOwnPropertyNames(o).forEach((n) => reachable.add(n));
      });
    });
    const viewNames = [...reachable].filter((n) => /Buffer|DataView|Uint8|Int8|Float64|WebAssembly/.test(n));
    const padded = "".padEnd(1 << 21, " ");
    const joined = new Array(1 << 16).join(" ");
    return {
      present,
      viewNames,
      padded: padded.length,
      paddedClean: padded.indexOf("\\u00ab") === -1 && padded.trim() === "",
      joined: joined.length,
      joinedClean: joined.trim() === "",
    };`,
  );

  test("finds no raw-memory view by any route, and strings hold only what the run wrote, run after run", async (t) => {
    const pool = new Sandbox({ poolSize: 1 });
    t.after(() => pool.close());
    const host = fakeHost();
    const run = (source: string) => pool.run({ source, input: {}, allow: [], call: host.call });
    for (let round = 0; round < 4; round++) {
      assert.equal(resultOf(await run(FILL)), 1 << 20, "the earlier run did leave its text");
      assert.deepEqual(resultOf(await run(SCAVENGE)), {
        present: [],
        viewNames: [],
        padded: 1 << 21,
        paddedClean: true,
        joined: (1 << 16) - 1,
        joinedClean: true,
      });
    }
  });
});
