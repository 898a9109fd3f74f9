/**
 * Attacks on the host's thread and on the run's accounting: engine builtins that loop over a huge length (the
 * engine cannot interrupt them; the host terminates their worker from outside), a tool that reads many large
 * answers, a huge echoed error, and code that reads its own source, its stack or the order of answers to tell a
 * replay from a live run. Every run goes through the public `Sandbox`.
 */
import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { Sandbox } from "../core/sandbox/sandbox.ts";
import type { SandboxCall, SandboxOutcome } from "../core/sandbox/types.ts";
import type { VersionRecord } from "../core/store/records.ts";
import { structuredError } from "../core/trace/distilled-run.ts";
import { instrumentCallSites } from "../core/verify/call-sites.ts";
import { failureOf, fakeHost, resultOf, toolSource } from "./sandbox-helpers.ts";

const sandbox = new Sandbox({ poolSize: 1 });
after(() => sandbox.close());

/** Runs `code` as a tool's body with small limits, counting the host's timer ticks while it runs. */
async function withTicks(code: string): Promise<{ outcome: SandboxOutcome; ticks: number }> {
  let ticks = 0;
  const timer = setInterval(() => ticks++, 5);
  try {
    const outcome = await sandbox.run({
      source: toolSource(`    ${code}`),
      input: {},
      allow: [],
      call: fakeHost().call,
      limits: { cpuMs: 500, wallMs: 800 },
    });
    return { outcome, ticks };
  } finally {
    clearInterval(timer);
  }
}

describe("builtins over a huge length never freeze the host", () => {
  const frozen = [
    `return Array.prototype.join.call({ length: 2 ** 32 - 1 }, "");`,
    `return Array.prototype.indexOf.call({ length: 1e15 }, 1);`,
    `return Array.prototype.includes.call({ length: 1e15 }, 1);`,
    `return Array.prototype.lastIndexOf.call({ length: 1e15 }, 1);`,
    `return Array.prototype.sort.call({ length: 2 ** 32 - 1 });`,
    `return Array.prototype.reverse.call({ length: 2 ** 32 - 1 });`,
  ];
  for (const code of frozen) {
    test(`${code}: the worker is terminated from outside; the host's timers kept firing`, async () => {
      const { outcome, ticks } = await withTicks(code);
      const failure = failureOf(outcome);
      assert.deepEqual([failure.kind, failure.cause], ["cpu", "tool"], failure.message);
      assert.match(failure.message, /its worker was terminated/);
      // A host thread running the loop itself would have fired its timer at most once, after the run.
      assert.ok(ticks > 3, `the host's timer fired ${ticks} times during the run`);
    });
  }

  test("the same loop in check(), which runs in an instance of its own after the run, is terminated too", async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    try {
      const outcome = await sandbox.run({
        source: toolSource(
          `    return { ok: true };`,
          `\n  check: (result: any) => Array.prototype.indexOf.call({ length: 1e15 }, result) === -1,`,
        ),
        input: {},
        allow: [],
        call: fakeHost().call,
        runCheck: true,
        limits: { cpuMs: 500, wallMs: 800 },
      });
      const failure = failureOf(outcome);
      assert.deepEqual([failure.kind, failure.cause], ["cpu", "tool"], failure.message);
      assert.ok(ticks > 3, `the host's timer fired ${ticks} times during the check`);
    } finally {
      clearInterval(timer);
    }
    // The next run, check included, is served as usual.
    const next = await sandbox.run({
      source: toolSource(`    return 7;`, `\n  check: (result: any) => result === 7,`),
      input: {},
      allow: [],
      call: fakeHost().call,
      runCheck: true,
    });
    assert.equal(resultOf(next), 7);
  });

  test("allocating builtins fail on memory, regex backtracking on time; none of them is blamed on the host's freeze", async () => {
    for (const code of [
      `return Array.from({ length: 1e9 }).length;`,
      `return "x".repeat(2 ** 29).length;`,
      `return "x".padEnd(2 ** 29).length;`,
      `return JSON.stringify(Array.from({ length: 1e8 }, () => "xxxxxxxx")).length;`,
      `return /(a+)+$/.test("a".repeat(40) + "b");`,
    ]) {
      const failure = failureOf((await withTicks(code)).outcome);
      assert.ok(["memory", "cpu", "deadline"].includes(failure.kind), `${code}: ${failure.kind}`);
    }
  });

  test("a benign run completes while a hostile one holds its worker; the next runs work", async () => {
    let hostileDone = false;
    const hostile = sandbox
      .run({
        source: toolSource(`    return Array.prototype.indexOf.call({ length: 1e15 }, 1);`),
        input: {},
        allow: [],
        call: fakeHost().call,
        limits: { wallMs: 2000 },
      })
      .then((outcome) => {
        hostileDone = true;
        return outcome;
      });
    const host = fakeHost();
    const benign = await sandbox.run({
      source: toolSource(`    return (await call("echo", { n: 1 })).args.n + 1;`),
      input: {},
      allow: ["echo"],
      call: host.call,
    });
    assert.equal(resultOf(benign), 2);
    assert.equal(hostileDone, false, "the benign run finished while the hostile one was still running");
    assert.equal(failureOf(await hostile).kind, "cpu");
    for (let i = 0; i < 3; i++) {
      assert.equal(
        resultOf(
          await sandbox.run({
            source: toolSource(`    return ${i};`),
            input: {},
            allow: [],
            call: host.call,
          }),
        ),
        i,
      );
    }
  });
});

describe("instances made ahead hold nothing of an earlier run", () => {
  // A tool that leaves what it can behind: globals, changed builtins and prototypes, the prelude's captured
  // functions shadowed, a large value on the heap, and a not-applicable end.
  const DIRTY = toolSource(
    [
      `    const g = globalThis as any;`,
      `    g.leak = "secret-" + input.n; g.big = "s".repeat(1_000_000) + input.n;`,
      `    (Array.prototype as any).extra = 1; (Object.prototype as any).polluted = true;`,
      `    JSON.parse = () => ({ forged: true }); JSON.stringify = () => "forged";`,
      `    (g.Date as any).parse = () => 0; g.Error = function () { return { stack: "forged" }; };`,
      `    if (input.n % 2 === 0) notApplicable("dirty " + input.n);`,
      `    return "dirtied";`,
    ].join("\n"),
  ).replace(`import { distilledTool, call }`, `import { distilledTool, call, notApplicable }`);
  const CLEAN = toolSource(
    [
      `    const g = globalThis as any;`,
      `    const seen = [g.leak, g.big, ([] as any).extra, ({} as any).polluted, g.Error.name, Date.parse("1970-01-02T00:00:00Z")];`,
      `    const echoed = await call("echo", { n: input.n });`,
      `    return { seen: seen.map((v) => v === undefined ? null : v), n: echoed.args.n, keys: Object.keys(g).sort() };`,
    ].join("\n"),
  );

  test("run after run, tool after tool, on the same workers: globals, heap, builtins and prelude state are new", async () => {
    const pool = new Sandbox({ poolSize: 1 });
    try {
      const host = fakeHost();
      const baseline = resultOf(
        await pool.run({ source: CLEAN, input: { n: -1 }, allow: ["echo"], call: host.call }),
      ) as { keys: string[] };
      for (let n = 0; n < 6; n++) {
        const dirty = await pool.run({ source: DIRTY, input: { n }, allow: [], call: host.call });
        assert.ok(dirty.ok, JSON.stringify(dirty));
        const clean = await pool.run({ source: CLEAN, input: { n }, allow: ["echo"], call: host.call });
        assert.equal(clean.ok && clean.notApplicable, undefined, "no earlier run's not-applicable end");
        assert.deepEqual(resultOf(clean), {
          seen: [null, null, null, null, "Error", 86_400_000],
          n,
          keys: baseline.keys,
        });
      }
      assert.ok(pool.stats().spawned >= 13, "each run had an instance of its own");
    } finally {
      await pool.close();
    }
  });
});

describe("accounting blames only what the tool keeps", () => {
  test("a tool that reads 40 answers of 800 kB and keeps a counter succeeds in 64 MB", async () => {
    const outcome = await sandbox.run({
      source: toolSource(
        `    let n = 0; for (let i = 0; i < 40; i++) n += (await call("big", { bytes: 800000 })).length; return n;`,
      ),
      input: {},
      allow: ["big"],
      call: fakeHost().call,
      limits: { memoryMb: 64, cpuMs: 20_000 },
    });
    assert.equal(resultOf(outcome), 40 * 800_000);
  });

  test("keeping them all is the tool's own memory, and fails as such", async () => {
    const outcome = await sandbox.run({
      source: toolSource(
        `    const kept: string[] = []; for (let i = 0; i < 80; i++) kept.push((await call("big", { bytes: 800000 })) + i); return kept.length;`,
      ),
      input: {},
      allow: ["big"],
      call: fakeHost().call,
      limits: { memoryMb: 64, cpuMs: 20_000 },
    });
    assert.deepEqual([failureOf(outcome).kind, failureOf(outcome).cause], ["memory", "tool"]);
  });

  test("a huge error a base tool echoes is clipped in the run, in its record and in the structured error", async () => {
    const huge = "E".repeat(3_600_000);
    const outcome = await sandbox.run({
      source: toolSource(
        `    await call("echo", { s: "a".repeat(500000) }); return call("fail", { why: input.why });`,
      ),
      input: { why: huge },
      allow: ["echo", "fail"],
      call: fakeHost().call,
    });
    const failure = failureOf(outcome);
    assert.ok(failure.message.length < 2000, `failure message of ${failure.message.length} characters`);
    assert.ok((outcome.calls[1]?.error ?? "").length < 2000);
    const version = { name: "echoing", version: 1 } as VersionRecord;
    const many: SandboxCall[] = Array.from({ length: 500 }, () => outcome.calls[0]!);
    const text = structuredError(version, { ...failure, message: huge }, many, null, {
      baseTool: () => undefined,
    });
    assert.ok(text.length < 30_000, `structured error of ${text.length} characters`);
    assert.match(text, /… and 470 more completed steps/);
  });
});

describe("replay cannot be told from live", () => {
  const SELF = toolSource(
    [
      `    const own = async function own() { return call("echo", { x: 1 }); };`,
      `    const me = String(own) + own.toString() + Object.getPrototypeOf(Object.getPrototypeOf(own)).toString.call(own);`,
      `    const stack = String(new Error("where").stack);`,
      `    const first = await Promise.race([call("slow", { ms: input.a, tag: "a" }), call("slow", { ms: input.b, tag: "b" })]);`,
      `    const tag = (first as { args: { tag: string } }).args.tag;`,
      `    if (me.length !== input.meLength || stack.length !== input.stackLength || tag !== "a") await own();`,
      `    return { tag, stack, me };`,
    ].join("\n"),
  );

  test("the same code, the same stacks, the same order of answers: the same calls and result", async () => {
    const located = instrumentCallSites(SELF);
    assert.equal(located.source, SELF, "verification runs the stored source as it is");
    const probe = await sandbox.run({
      source: SELF,
      input: { a: 0, b: 0, stackLength: -1, meLength: -1 },
      allow: ["slow", "echo"],
      call: fakeHost().call,
    });
    const { stack, me } = resultOf(probe) as { stack: string; me: string };
    assert.ok(me.includes(`call("echo", { x: 1 })`), me);
    const lengths = { stackLength: stack.length, meLength: me.length };
    // Replay: answers at once, in call order, with the sites given. Live: b answers long before a.
    const replayHost = fakeHost();
    const replay = await sandbox.run({
      source: SELF,
      input: { a: 0, b: 0, ...lengths },
      allow: ["slow", "echo"],
      call: replayHost.call,
      sites: located.sites,
    });
    const liveHost = fakeHost();
    const live = await sandbox.run({
      source: SELF,
      input: { a: 300, b: 0, ...lengths },
      allow: ["slow", "echo"],
      call: liveHost.call,
    });
    assert.deepEqual(resultOf(live), resultOf(replay));
    assert.equal((resultOf(live) as { tag: string }).tag, "a", "Promise.race settles in call order");
    assert.deepEqual(
      liveHost.log.map((c) => c.tool),
      replayHost.log.map((c) => c.tool),
    );
    assert.ok(!liveHost.log.some((c) => c.tool === "echo"), "no branch taken live that replay did not take");
  });
});
