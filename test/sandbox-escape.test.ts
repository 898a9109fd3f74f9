/**
 * Hostile tool sources run straight through the Sandbox (no static check): the sandbox must contain each on
 * its own. Every case says what it tries and proves what stopped it.
 */
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { inspect } from "node:util";
import { Sandbox, type SandboxOutcome, type SandboxRunRequest } from "../core/sandbox.ts";
import { tempDir } from "./helpers.ts";
import { failureOf, fakeHost, resultOf, toolSource } from "./sandbox-helpers.ts";

const sandbox = new Sandbox({ poolSize: 2, limits: { cpuMs: 1000 } });
after(() => sandbox.close());

/** The flags core/sandbox.ts gives its children. */
const CHILD_FLAGS = [
  "--permission",
  "--max-old-space-size=64",
  "--disallow-code-generation-from-strings",
  "--experimental-vm-modules",
];
const RUNNER = fileURLToPath(new URL("../core/sandbox-runner.js", import.meta.url));

/** Runs one job on a fresh runner over its IPC protocol (bypassing core/sandbox.ts); base calls echo. */
function runnerJob(body: string): Promise<unknown> {
  const child = spawn(process.execPath, [...CHILD_FLAGS, RUNNER], {
    env: {},
    stdio: ["ignore", "ignore", "pipe", "ipc"],
    serialization: "json",
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    child.on("exit", () => {
      clearTimeout(timer);
      reject(new Error("the runner exited before finishing"));
    });
    child.on("message", (message: { type: string; calls: { id: number; args: string }[]; done: unknown }) => {
      if (message.type === "ready") {
        child.send({
          type: "job",
          body,
          input: "{}",
          runCheck: false,
          maxMessageBytes: 1 << 20,
          maxCalls: 10,
        });
        return;
      }
      for (const c of message.calls) child.send({ type: "reply", id: c.id, ok: true, output: c.args });
      if (message.done) {
        child.removeAllListeners("exit");
        clearTimeout(timer);
        child.kill("SIGKILL");
        resolve(message.done);
      }
    });
  });
}

/** Walks every frame of a stack (after a base call, so the runner's reply path is on it) for host values. */
const STACK_PROBE = `
    const leaks: string[] = [];
    let files: string[] = [];
    (Error as any).prepareStackTrace = (_e: unknown, frames: any[]) => {
      files = frames.map((f: any) => String(f.getFileName()));
      for (const f of frames) {
        const file = String(f.getFileName());
        const values = [["this", f.getThis()], ["function", f.getFunction()]];
        for (const [what, v] of values) {
          if (v === undefined || v === null) continue;
          if (!(v instanceof Object)) leaks.push(file + ": a host " + what);
          else if (!file.startsWith("tool.js") && !file.startsWith("tooldistill-")) leaks.push(file + ": " + what);
        }
      }
      return "";
    };
    await call("echo", {});
    function inner() { return new Error("probe").stack; }
    inner();
    return { files, leaks };`;

const hostGlobals = Object.getOwnPropertyNames(globalThis).sort();
const hostObjectProto = Object.getOwnPropertyNames(Object.prototype).sort();
const hostArrayProto = Object.getOwnPropertyNames(Array.prototype).sort();

async function attempt(run: string, options: Partial<SandboxRunRequest> = {}): Promise<SandboxOutcome> {
  const host = fakeHost();
  return sandbox.run({
    source: toolSource(run),
    input: {},
    allow: ["echo", "fail"],
    call: (tool, args) => host.call(tool, args),
    ...options,
  });
}

/** Code generation is off in the context (and in the child's own realm too). */
const CODEGEN = "EvalError: Code generation from strings disallowed for this context";

describe("constructor chains", () => {
  const chains: [string, string][] = [
    ["({}).constructor.constructor", `return ({}).constructor.constructor("return process")();`],
    ["call.constructor", `return (call as any).constructor("return process")();`],
    ["the async function constructor", `return (async () => {}).constructor("return process")();`],
    [
      "the generator function constructor",
      `return (function* () {}).constructor("return process")().next();`,
    ],
    [
      "a promise returned by call",
      `return (call("echo", {}) as any).constructor.constructor("return process")();`,
    ],
    [
      "a base call's result",
      `const r: any = await call("echo", {}); return r.constructor.constructor("return process")();`,
    ],
    [
      "an error made by the engine",
      `try { (null as any).x; } catch (e: any) { return e.constructor.constructor("return process")(); }`,
    ],
    [
      "computed keys building 'constructor'",
      `const k = ["con", "struc", "tor"].join(""); return (({} as any)[k][k])("return process")();`,
    ],
    [
      "computed '__proto__'",
      `const p = "__" + "proto" + "__"; const o: any = ({} as any)[p]; return o["constructor"]["constructor"]("return process")();`,
    ],
    ["eval", `return eval("process");`],
    ["indirect eval", `return (0, eval)("process");`],
    ["new Function", `return new Function("return process")();`],
    ["Reflect.construct(Function)", `return Reflect.construct(Function, ["return process"])();`],
  ];
  for (const [via, code] of chains) {
    test(`via ${via}: code generation is refused`, async () => {
      assert.deepEqual(failureOf(await attempt(code)), { kind: "code_error", message: CODEGEN });
    });
  }
});

describe("stack trace tricks", () => {
  test("Error.prepareStackTrace sees no host `this` or function in any frame", async () => {
    const result = resultOf(await attempt(STACK_PROBE)) as { files: string[]; leaks: string[] };
    // V8 hides the receiver and function of a strict frame and of every frame below it (node:vm, the runner).
    assert.ok(
      result.files.some((f) => f.endsWith("sandbox-runner.js")),
      result.files.join(", "),
    );
    assert.deepEqual(result.leaks, []);
  });

  test("the same holds for a runner copied under a CommonJS package.json", async (t) => {
    const dir = tempDir(t, "td-escape-cjs-");
    writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "commonjs" }));
    const runnerPath = join(dir, "sandbox-runner.js");
    copyFileSync(RUNNER, runnerPath);
    const copied = new Sandbox({ runnerPath, poolSize: 0 });
    t.after(() => copied.close());
    const host = fakeHost();
    const outcome = await copied.run({
      source: toolSource(STACK_PROBE),
      input: {},
      allow: ["echo"],
      call: host.call,
    });
    const result = resultOf(outcome) as { files: string[]; leaks: string[] };
    assert.ok(result.files.includes(runnerPath), result.files.join(", "));
    assert.deepEqual(result.leaks, []);
  });

  test("a hostile prepareStackTrace is never run by the host", async () => {
    const outcome = await attempt(`
    (Error as any).prepareStackTrace = () => { for (;;) {} };
    throw new Error("plain message");`);
    assert.deepEqual(failureOf(outcome), { kind: "code_error", message: "plain message" });
  });

  test("a thrown value with hostile getters cannot take over the error path", async () => {
    const throwing = await attempt(`throw { get message() { throw new Error("nested"); } };`);
    assert.deepEqual(failureOf(throwing), {
      kind: "code_error",
      message: "a value that cannot be described was thrown",
    });
    const proxy = await attempt(
      `throw new Proxy({}, { get: () => { throw 1; }, getPrototypeOf: () => { throw 1; } });`,
    );
    assert.equal(failureOf(proxy).kind, "code_error");
    const looping = await attempt(`throw { get message() { for (;;) {} } };`, { limits: { cpuMs: 300 } });
    assert.equal(failureOf(looping).kind, "timeout");
  });

  test("arguments.callee.caller and fn.caller are refused (strict mode)", async () => {
    const callee = await attempt(`return (function () { return (arguments as any).callee.caller; })();`);
    assert.equal(failureOf(callee).kind, "code_error");
    assert.match(
      failureOf(callee).message,
      /^TypeError: 'caller', 'callee', and 'arguments' properties may not be accessed/,
    );
    const caller = await attempt(`function f(): any { return (f as any).caller; } return f();`);
    assert.equal(failureOf(caller).kind, "code_error");
  });

  test("module-level `this` is undefined", async () => {
    const outcome = await sandbox.run({
      source: `const self = this;\nexport default { async run() { return typeof self; } };`,
      input: {},
      allow: [],
      call: async () => null,
    });
    assert.equal(resultOf(outcome), "undefined");
  });
});

describe("the context holds nothing of the host", () => {
  test("no Node globals, timers, network, WebAssembly, shared memory or binary buffers", async () => {
    const names = [
      "process",
      "require",
      "module",
      "exports",
      "Buffer",
      "global",
      "fetch",
      "setTimeout",
      "setImmediate",
      "queueMicrotask",
      "structuredClone",
      "console",
      "WebAssembly",
      "SharedArrayBuffer",
      "Atomics",
      "ArrayBuffer",
      "Uint8Array",
      "FinalizationRegistry",
      "WeakRef",
      "__filename",
      "navigator",
    ];
    const outcome = await attempt(
      `const names = ${JSON.stringify(names)};
    return { types: names.map((n) => typeof (globalThis as any)[n]), globals: Object.getOwnPropertyNames(globalThis) };`,
    );
    const result = resultOf(outcome) as { types: string[]; globals: string[] };
    assert.deepEqual(
      result.types,
      names.map(() => "undefined"),
    );
    for (const name of names) assert.ok(!result.globals.includes(name), name);
  });

  test("Symbol.for('nodejs.util.inspect.custom') never runs in the host", async () => {
    const outcome = await attempt(`
    const custom = Symbol.for("nodejs.util.inspect.custom");
    const value: any = { ok: 1, [custom]: () => { for (;;) {} } };
    value.toString = () => { for (;;) {} };
    return value;`);
    assert.deepEqual(resultOf(outcome), { ok: 1 });
    // The outcome is plain host data: inspecting it runs nothing of the tool.
    assert.match(inspect(outcome, { depth: 5 }), /ok: 1/);
    const thrown = await attempt(`
    const e: any = new Error("inspect me");
    e[Symbol.for("nodejs.util.inspect.custom")] = () => { for (;;) {} };
    throw e;`);
    assert.deepEqual(failureOf(thrown), { kind: "code_error", message: "inspect me" });
  });

  test("prototype pollution inside the context does not reach the host or the protocol", async () => {
    const host = fakeHost();
    const outcome = await sandbox.run({
      source: toolSource(`
    (Object.prototype as any).polluted = "yes";
    (Object.prototype as any).toJSON = () => ({ forged: true });
    (Array.prototype as any).push = () => 0;
    Object.defineProperty(Array.prototype, "0", { set() {}, get() { return "forged"; }, configurable: true });
    Object.defineProperty(Object.prototype, "1", { set() {}, get() { return "forged"; }, configurable: true });
    (JSON as any).stringify = () => '{"id":1,"name":"fail"}';
    (JSON as any).parse = () => ({ forged: true });
    (Promise.prototype as any).then = function () { return this; };
    const r: any = await call("echo", { n: 1 });
    return "after pollution";`),
      input: {},
      allow: ["echo"],
      call: (tool, args) => host.call(tool, args),
    });
    // The prelude captured its intrinsics: the forged JSON.stringify did not turn the call into 'fail'.
    // (The planted toJSON is the tool's own code shaping its own arguments, which it may do anyway.)
    assert.deepEqual(host.log, [{ tool: "echo", args: { forged: true } }]);
    assert.equal(outcome.calls[0]?.tool, "echo");
    assert.equal(resultOf(outcome), "after pollution");
    assert.equal(({} as Record<string, unknown>)["polluted"], undefined);
    assert.deepEqual(Object.getOwnPropertyNames(Object.prototype).sort(), hostObjectProto);
    assert.deepEqual(Object.getOwnPropertyNames(Array.prototype).sort(), hostArrayProto);
  });

  test("__proto__ keys in call arguments stay data in the host", async () => {
    const host = fakeHost();
    const outcome = await sandbox.run({
      source: toolSource(
        `return call("echo", JSON.parse('{"__proto__": {"polluted": 1}, "constructor": {"prototype": {"polluted": 1}}}'));`,
      ),
      input: {},
      allow: ["echo"],
      call: (tool, args) => host.call(tool, args),
    });
    assert.ok(outcome.ok);
    assert.ok(Object.hasOwn(host.log[0]!.args, "__proto__"));
    assert.equal(({} as Record<string, unknown>)["polluted"], undefined);
  });

  test("the sandbox's own plumbing cannot be replaced", async () => {
    const replace = await attempt(`(globalThis as any).__td = { poll() { return "x"; } };`);
    assert.equal(failureOf(replace).kind, "code_error");
    assert.match(failureOf(replace).message, /^TypeError: Cannot assign to read only property '__td'/);
    const redefine = await attempt(`Object.defineProperty(globalThis, "__td", { value: {} });`);
    assert.match(failureOf(redefine).message, /^TypeError: Cannot redefine property: __td/);
    const mutate = await attempt(`(globalThis as any).__td.poll = () => "x";`);
    assert.match(failureOf(mutate).message, /^TypeError: Cannot assign to read only property 'poll'/);
    // Restarting or reloading the job does nothing: the run ends normally.
    const restart = await attempt(
      `(globalThis as any).__td.start("{}", false); (globalThis as any).__td.load(() => 1); return "same run";`,
    );
    assert.equal(resultOf(restart), "same run");
  });

  test("a thenable that never settles ends the run instead of hanging it", async () => {
    const outcome = await attempt(`return { then() {} };`);
    assert.deepEqual(failureOf(outcome), {
      kind: "code_error",
      message: "the tool's promise never settled: its code is waiting, but not on any base call",
    });
  });
});

describe("effects outside", () => {
  test("file system: no fs, import() refused, the marker file is never written", async (t) => {
    const marker = join(tempDir(t, "td-escape-fs-"), "marker.txt");
    const outcome = await attempt(
      `const fs: any = await import("node:fs"); fs.writeFileSync(input.marker, "escaped"); return "wrote";`,
      { input: { marker } },
    );
    assert.deepEqual(failureOf(outcome), {
      kind: "bad_module",
      message: "line 8: import() is not available in a distilled tool",
    });
    assert.equal(existsSync(marker), false);
  });

  test("the runner alone answers import() with the context's own error, not a host one", async (t) => {
    const marker = join(tempDir(t, "td-escape-import-"), "marker.txt");
    // Straight to the runner, past toFunctionBody's refusal of import().
    const done = await runnerJob(`return { run: async () => {
      const e = await import("node:fs").then((fs) => { fs.writeFileSync(${JSON.stringify(marker)}, "x"); return null; }, (err) => err);
      let ctor;
      try { ctor = typeof e.constructor.constructor("return process")(); } catch (x) { ctor = x.message; }
      return { sameRealm: e instanceof TypeError, message: e.message, ctor };
    } };`);
    assert.deepEqual(done, {
      ok: true,
      check: "skipped",
      result: JSON.stringify({
        sameRealm: true,
        message: "import() is not available inside a distilled tool",
        ctor: "Code generation from strings disallowed for this context",
      }),
    });
    assert.equal(existsSync(marker), false);
  });

  test("environment, process and require are unreachable", async () => {
    const outcome = await attempt(
      `return [typeof (globalThis as any).process?.env, typeof (globalThis as any).require, typeof (globalThis as any).module?.require];`,
    );
    assert.deepEqual(resultOf(outcome), ["undefined", "undefined", "undefined"]);
    const direct = await attempt(`return (process as any).env.HOME;`);
    assert.deepEqual(failureOf(direct), {
      kind: "code_error",
      message: "ReferenceError: process is not defined",
    });
    const req = await attempt(`return (require as any)("node:fs");`);
    assert.deepEqual(failureOf(req), {
      kind: "code_error",
      message: "ReferenceError: require is not defined",
    });
  });

  test("network: no fetch, no net module", async () => {
    const viaFetch = await attempt(`return (fetch as any)("http://127.0.0.1:1/");`);
    assert.deepEqual(failureOf(viaFetch), {
      kind: "code_error",
      message: "ReferenceError: fetch is not defined",
    });
    const viaNet = await attempt(`const net: any = await import("node:net"); return typeof net.connect;`);
    assert.equal(failureOf(viaNet).kind, "bad_module");
  });

  test("WebAssembly, SharedArrayBuffer and Atomics.wait are not there", async () => {
    const wasm = await attempt(
      `return (WebAssembly as any).compile(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]));`,
    );
    assert.deepEqual(failureOf(wasm), {
      kind: "code_error",
      message: "ReferenceError: WebAssembly is not defined",
    });
    const wait = await attempt(
      `return (Atomics as any).wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);`,
    );
    assert.equal(failureOf(wait).kind, "code_error");
    assert.match(
      failureOf(wait).message,
      /^ReferenceError: (Atomics|SharedArrayBuffer|Int32Array) is not defined$/,
    );
  });
});

describe("exhaustion", () => {
  test("an infinite loop is stopped at the deadline", async () => {
    const started = performance.now();
    const outcome = await attempt(`for (;;) {}`, { limits: { cpuMs: 300 } });
    assert.equal(failureOf(outcome).kind, "timeout");
    assert.ok(performance.now() - started < 3000);
  });

  test("an infinite microtask loop is stopped at the deadline", async () => {
    const outcome = await attempt(
      `const spin = (): void => { Promise.resolve().then(spin); }; spin(); return 1;`,
      {
        limits: { cpuMs: 300 },
      },
    );
    assert.equal(failureOf(outcome).kind, "timeout");
  });

  test("a loop after the last reply is stopped too", async () => {
    const outcome = await attempt(`await call("echo", {}); await call("echo", {}); while (true) {}`, {
      limits: { cpuMs: 300 },
    });
    const failure = failureOf(outcome);
    assert.equal(failure.kind, "timeout");
    assert.equal(outcome.calls.length, 2);
  });

  test("a loop in a check or in a result's toJSON is stopped", async () => {
    const check = await sandbox.run({
      source: toolSource(`return 1;`, `\n  check: () => { for (;;) {} },`),
      input: {},
      allow: [],
      call: async () => null,
      runCheck: true,
      limits: { cpuMs: 300 },
    });
    assert.equal(failureOf(check).kind, "timeout");
    const toJson = await attempt(`return { toJSON() { for (;;) {} } };`, { limits: { cpuMs: 300 } });
    assert.equal(failureOf(toJson).kind, "timeout");
  });

  test("never-resolving promises end the run at once", async () => {
    const started = performance.now();
    const outcome = await attempt(`await Promise.all([call("echo", {}), new Promise(() => {})]);`);
    assert.equal(failureOf(outcome).kind, "code_error");
    assert.match(failureOf(outcome).message, /never settled/);
    assert.ok(performance.now() - started < 1000);
  });

  test("memory bombs: objects, strings, arrays", async () => {
    const bombs = [
      `const a: any[] = []; for (;;) a.push([a.length, {}]);`,
      `let s = "x"; const keep: string[] = []; for (;;) { s = s + s; keep.push(s.slice(1)); }`,
      `return new Array(1e9).fill({ a: 1 });`,
    ];
    for (const bomb of bombs) {
      const outcome = await attempt(bomb, { limits: { cpuMs: 20_000 } });
      const failure = failureOf(outcome);
      // Either V8 refuses the allocation inside the context, or the heap cap ends the child.
      assert.ok(
        failure.kind === "memory" || failure.kind === "code_error",
        `${bomb}: ${failure.kind} ${failure.message}`,
      );
    }
    const heap = failureOf(await attempt(bombs[0]!, { limits: { cpuMs: 20_000, memoryMb: 32 } }));
    assert.deepEqual(heap, {
      kind: "memory",
      message: "the tool used more than 32 MB of memory and was stopped",
    });
  });

  test("huge messages are stopped in the child before they cross", async () => {
    const host = fakeHost();
    const args = await sandbox.run({
      source: toolSource(`return call("echo", { s: "y".repeat(20 * 1024 * 1024) });`),
      input: {},
      allow: ["echo"],
      call: (tool, a) => host.call(tool, a),
    });
    assert.equal(failureOf(args).kind, "message_limit");
    assert.match(
      failureOf(args).message,
      /^the arguments of call 1 to 'echo' are 20971528 bytes, more than the 1048576-byte limit$/,
    );
    assert.equal(host.log.length, 0);
    const result = await attempt(`return "z".repeat(20 * 1024 * 1024);`);
    assert.equal(failureOf(result).kind, "message_limit");
  });

  test("calls in a tight loop hit the call cap without reaching the host", async () => {
    const host = fakeHost();
    const outcome = await sandbox.run({
      source: toolSource(`for (let i = 0; i < 100000; i++) call("echo", { i }); return "fired";`),
      input: {},
      allow: ["echo"],
      call: (tool, a) => host.call(tool, a),
    });
    assert.equal(failureOf(outcome).kind, "call_limit");
    assert.equal(host.log.length, 0);
    assert.equal(outcome.calls.length, 201);
  });

  test("weird call names and arguments", async () => {
    const proto = await attempt(`return call("__proto__", {});`);
    assert.equal(failureOf(proto).kind, "not_allowed");
    const ctor = await attempt(`return call("constructor", {});`);
    assert.equal(failureOf(ctor).kind, "not_allowed");
    const notString = await attempt(`return (call as any)({ toString: () => "echo" }, {});`);
    assert.deepEqual(failureOf(notString), {
      kind: "code_error",
      message: "TypeError: call(name, args): name must be a string",
    });
    const arrayArgs = await attempt(`return (call as any)("echo", [1, 2]);`);
    assert.deepEqual(failureOf(arrayArgs), {
      kind: "code_error",
      message: "TypeError: call('echo', args): args must be an object",
    });
  });

  test("deep recursion is a code error", async () => {
    const outcome = await attempt(`const f = (n: number): number => f(n + 1) + 1; return f(0);`);
    assert.deepEqual(failureOf(outcome), {
      kind: "code_error",
      message: "RangeError: Maximum call stack size exceeded",
    });
  });
});

test("the child's permission model denies fs writes, child processes and workers to trusted code too", (t) => {
  const dir = tempDir(t, "td-escape-perm-");
  const marker = join(dir, "marker.txt");
  const script = join(dir, "probe.mjs");
  writeFileSync(
    script,
    `import fs from "node:fs";
import cp from "node:child_process";
import { Worker } from "node:worker_threads";
const out = {};
const probe = (name, fn) => { try { fn(); out[name] = "allowed"; } catch (e) { out[name] = e.code ?? e.message; } };
probe("writeFileSync", () => fs.writeFileSync(${JSON.stringify(marker)}, "escaped"));
probe("readFileSync", () => fs.readFileSync("/etc/hostname"));
probe("spawnSync", () => cp.spawnSync("/bin/sh", ["-c", "echo hi"]));
probe("Worker", () => new Worker("export {}", { eval: true }));
probe("eval", () => eval("1"));
out.env = Object.keys(process.env).length;
process.stdout.write(JSON.stringify(out));
`,
  );
  // The same flags and environment as the sandbox's children (core/sandbox.ts).
  const child = spawnSync(process.execPath, [...CHILD_FLAGS, script], {
    env: {},
    encoding: "utf8",
    timeout: 20_000,
  });
  assert.equal(child.status, 0, child.stderr);
  assert.deepEqual(JSON.parse(child.stdout), {
    writeFileSync: "ERR_ACCESS_DENIED",
    readFileSync: "ERR_ACCESS_DENIED",
    spawnSync: "ERR_ACCESS_DENIED",
    Worker: "ERR_ACCESS_DENIED",
    eval: "Code generation from strings disallowed for this context",
    env: 0,
  });
  assert.equal(existsSync(marker), false);
});

test("after every attack the host is unchanged and the sandbox still works", async () => {
  assert.deepEqual(Object.getOwnPropertyNames(globalThis).sort(), hostGlobals);
  assert.deepEqual(Object.getOwnPropertyNames(Object.prototype).sort(), hostObjectProto);
  const outcome = await attempt(`return (await call("echo", { fine: true })) as any;`);
  assert.deepEqual(resultOf(outcome), { tool: "echo", args: { fine: true } });
});
