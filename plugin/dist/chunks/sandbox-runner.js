// biome-ignore lint/suspicious/noRedundantUseStrict: CommonJS when copied under a package.json without "type": "module"; host frames stay strict, hidden from the context's Error.prepareStackTrace.
"use strict";
// The sandbox child: runs one distilled tool at a time inside a fresh `node:vm` context.
//
// This file is copied next to bundles as-is, so it is self-contained: no imports (node:vm comes from
// `process.getBuiltinModule`, which also keeps the file valid whether a package.json nearby says ESM
// or CommonJS). It is started by core/sandbox.ts as
//   node --permission --max-old-space-size=<MB> --disallow-code-generation-from-strings
//        --experimental-vm-modules sandbox-runner.js
// with an empty environment and an IPC channel (JSON serialisation). The permission model needs no
// --allow-fs-read for the entry script itself; vm modules are on only so that `importModuleDynamically`
// may answer import() (see startJob).
//
// Nothing of this realm ever enters the tool's context: the context's own prelude (evaluated there as
// source text) defines `distilledTool` and `call`, and this file talks to it only by running small
// scripts that return strings (JSON) and by embedding JSON string literals in scripts it runs there.
// This process is still treated as untrusted by the parent, which checks every message it sends.
//
// Protocol (parent -> child):
//   { type: "job", body, input, runCheck, maxMessageBytes, maxCalls }
//       body: a strict function body (toFunctionBody); input: a JSON string
//   { type: "reply", id, ok: true, output } | { type: "reply", id, ok: false, error }   output: a JSON string
// (child -> parent):
//   { type: "ready" }                                 once, when listening
//   { type: "round", calls, done }                    once per job/reply handled: the calls the code made
//                                                     meanwhile and, when it finished, how it finished.
//   calls: [{ id, name, args }] with args a JSON string, or { id, name, argsBytes } when args are too big
//   done: null | { ok: true, result, check } | { ok: true, resultBytes, check } | { ok: false, kind, message }
// A round means the child is idle again: the parent's deadline counts only time between a job/reply it
// sent and the matching round. A job whose code waits on nothing (no call out, no result) ends with a
// "never settled" code error.

const vm = process.getBuiltinModule("node:vm");

/** Globals removed from the context: binary memory outside the heap limit, shared memory, WebAssembly,
 * callbacks that run outside our control (FinalizationRegistry), and V8's console. */
const REMOVED_GLOBALS = [
  "console",
  "WebAssembly",
  "SharedArrayBuffer",
  "Atomics",
  "ArrayBuffer",
  "DataView",
  "Int8Array",
  "Uint8Array",
  "Uint8ClampedArray",
  "Int16Array",
  "Uint16Array",
  "Int32Array",
  "Uint32Array",
  "Float16Array",
  "Float32Array",
  "Float64Array",
  "BigInt64Array",
  "BigUint64Array",
  "FinalizationRegistry",
  "WeakRef",
];

/**
 * Runs INSIDE the context, evaluated from its source text (never called here). It must not refer to
 * anything of this file. It captures the intrinsics it needs before the tool's code can touch them, keeps
 * its state in a closure and exposes one frozen, non-configurable `__td` object whose functions return
 * only strings, numbers or undefined.
 */
function contextPrelude(removed) {
  const G = globalThis;
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const apply = Reflect.apply;
  const defineProperty = Object.defineProperty;
  const freeze = Object.freeze;
  const create = Object.create;
  const isArray = Array.isArray;
  const PromiseCtor = Promise;
  const promiseThen = Promise.prototype.then;
  const ErrorCtor = Error;
  const TypeErrorCtor = TypeError;
  const StringCtor = String;
  const stringSlice = String.prototype.slice;
  const MAX_MESSAGE = 2000;

  for (let i = 0; i < removed.length; i++) delete G[removed[i]];

  // Null-prototype queues so that setters planted on Object.prototype/Array.prototype never see them.
  const outbox = create(null);
  let outHead = 0;
  let outTail = 0;
  const pending = create(null);
  let nextId = 1;
  let factory = null;
  let state = "idle";
  let resultJson = "null";
  let checkState = "skipped";
  let failKind = "";
  let failMessage = "";

  function clip(text) {
    return text.length > MAX_MESSAGE ? apply(stringSlice, text, [0, MAX_MESSAGE]) + "…" : text;
  }

  // Message of anything thrown, computed here so that only a string ever leaves the context.
  function describe(err) {
    try {
      if ((typeof err === "object" && err !== null) || typeof err === "function") {
        const message = err.message;
        if (typeof message === "string") {
          const name = err.name;
          return typeof name === "string" && name !== "" && name !== "Error"
            ? name + ": " + message
            : message;
        }
      }
      const text = StringCtor(err);
      return typeof text === "string" ? text : "a value that cannot be described was thrown";
    } catch {
      return "a value that cannot be described was thrown";
    }
  }

  function fail(kind, message) {
    if (state !== "running") return;
    state = "failed";
    failKind = kind;
    failMessage = clip(message);
  }

  function succeed(json, check) {
    if (state !== "running") return;
    state = "ok";
    resultJson = json;
    checkState = check;
  }

  function distilledTool(definition) {
    return definition;
  }

  function call(name, args) {
    if (typeof name !== "string") throw new TypeErrorCtor("call(name, args): name must be a string");
    const given = args === undefined ? {} : args;
    if (given === null || typeof given !== "object" || isArray(given)) {
      throw new TypeErrorCtor("call('" + name + "', args): args must be an object");
    }
    const argsJson = stringify(given);
    const id = nextId++;
    outbox[outTail++] = { head: '{"id":' + id + ',"name":' + stringify(name) + "}", args: argsJson };
    return new PromiseCtor((resolve, reject) => {
      pending[id] = { resolve, reject };
    });
  }

  // Waits for a value: a native promise through the captured `then` (so a replaced Promise.prototype.then
  // cannot stall the run), anything else (a plain value, a thenable) through promise resolution.
  function settle(value, onValue, onError) {
    try {
      apply(promiseThen, value, [onValue, onError]);
      return;
    } catch {
      // Not a native promise (or one whose species was tampered with): resolve it like `await` would.
    }
    apply(promiseThen, new PromiseCtor((resolve) => resolve(value)), [onValue, onError]);
  }

  const library = create(null);
  library.distilledTool = distilledTool;
  library.call = call;
  freeze(library);

  function onResult(value, tool, check, runCheck) {
    if (state !== "running") return;
    let json;
    try {
      json = stringify(value);
    } catch (err) {
      fail("code_error", "the tool's result is not JSON-serialisable: " + describe(err));
      return;
    }
    if (json === undefined) json = "null";
    if (!runCheck) return succeed(json, "skipped");
    if (check === undefined) return succeed(json, "absent");
    let verdict;
    try {
      verdict = apply(check, tool, [parse(json)]);
    } catch (err) {
      return fail("check_failed", "check(result) threw: " + describe(err));
    }
    apply(promiseThen, new PromiseCtor((resolve) => resolve(verdict)), [
      (ok) =>
        ok ? succeed(json, "passed") : fail("check_failed", "check(result) returned " + StringCtor(ok)),
      (err) => fail("check_failed", "check(result) threw: " + describe(err)),
    ]);
  }

  const api = create(null);
  api.load = (fn) => {
    if (factory === null && typeof fn === "function") factory = fn;
  };
  api.start = (inputJson, runCheck) => {
    if (state !== "idle") return;
    state = "running";
    if (factory === null) return fail("bad_module", "the module did not load");
    let tool;
    try {
      tool = factory(library);
    } catch (err) {
      return fail("code_error", "the module threw while loading: " + describe(err));
    }
    let run;
    let check;
    try {
      if (tool === null || typeof tool !== "object") {
        return fail(
          "bad_module",
          "the module's default export must be distilledTool({ name, description, inputSchema, run, check? })",
        );
      }
      run = tool.run;
      check = tool.check;
    } catch (err) {
      return fail("code_error", describe(err));
    }
    if (typeof run !== "function") return fail("bad_module", "the tool has no run function");
    if (check !== undefined && typeof check !== "function") {
      return fail("bad_module", "the tool's check must be a function");
    }
    let promise;
    try {
      promise = apply(run, tool, [parse(inputJson)]);
    } catch (err) {
      return fail("code_error", describe(err));
    }
    settle(
      promise,
      (value) => onResult(value, tool, check, runCheck),
      (err) => fail("code_error", describe(err)),
    );
  };
  api.deliver = (id, ok, payload) => {
    const entry = pending[id];
    if (entry === undefined) return;
    delete pending[id];
    if (ok) entry.resolve(parse(payload));
    else entry.reject(new ErrorCtor(payload));
  };
  // The error an `import()` rejects with: made here so that no host error object enters the context.
  api.importError = () => new TypeErrorCtor("import() is not available inside a distilled tool");
  api.poll = () =>
    '{"calls":' +
    (outTail - outHead) +
    ',"state":"' +
    state +
    '","check":"' +
    checkState +
    '","kind":"' +
    failKind +
    '","message":' +
    stringify(failMessage) +
    "}";
  api.head = () => (outHead < outTail ? outbox[outHead].head : "");
  api.args = () => (outHead < outTail ? outbox[outHead].args : "");
  api.shift = () => {
    if (outHead < outTail) delete outbox[outHead++];
    return "";
  };
  api.result = () => resultJson;
  freeze(api);
  defineProperty(G, "__td", { value: api, writable: false, enumerable: false, configurable: false });
}

const CONTEXT_OPTIONS = {
  name: "distilled tool",
  codeGeneration: { strings: false, wasm: false },
  microtaskMode: "afterEvaluate",
};
const RUN_OPTIONS = { displayErrors: false, breakOnSigint: false };
const PRELUDE = new vm.Script(
  // Strict for the whole script, whatever a formatter does to directives inside the function.
  '"use strict";\n(' +
    Function.prototype.toString.call(contextPrelude) +
    ")(" +
    JSON.stringify(REMOVED_GLOBALS) +
    ");",
  { filename: "tooldistill-prelude.js" },
);
const POLL = new vm.Script("__td.poll()", { filename: "tooldistill-poll.js" });
const HEAD = new vm.Script("__td.head()", { filename: "tooldistill-head.js" });
const ARGS = new vm.Script("__td.args()", { filename: "tooldistill-args.js" });
const SHIFT = new vm.Script("__td.shift()", { filename: "tooldistill-shift.js" });
const RESULT = new vm.Script("__td.result()", { filename: "tooldistill-result.js" });
const IMPORT_ERROR = new vm.Script("__td.importError", { filename: "tooldistill-import.js" });

/** A failure of this runner itself (never carries anything from the context). */
class RunnerError extends Error {}

/** The job being run: { ctx, maxMessageBytes, inflight: Set<number> }, or null when idle. */
let job = null;

function byteLength(text) {
  return Buffer.byteLength(text, "utf8");
}

/** Runs a trusted script in the job's context; anything but a string back means the context misbehaved. */
function runForString(script) {
  let value;
  try {
    value = script.runInContext(job.ctx, RUN_OPTIONS);
  } catch {
    // Whatever was thrown belongs to the context: it is not looked at.
    throw new RunnerError("the tool's code interfered with the sandbox");
  }
  if (typeof value !== "string") throw new RunnerError("the tool's code interfered with the sandbox");
  return value;
}

/** Runs a trusted script whose value is not needed; a throw from the context is dropped unseen. */
function runIgnoringResult(script) {
  try {
    script.runInContext(job.ctx, RUN_OPTIONS);
  } catch {
    // Nothing of the thrown value is read; the state poll says what happened.
  }
}

function startJob(message) {
  const ctx = vm.createContext(vm.constants.DONT_CONTEXTIFY, {
    ...CONTEXT_OPTIONS,
    importModuleDynamically: () => {
      throw importError();
    },
  });
  job = {
    ctx,
    maxMessageBytes: message.maxMessageBytes,
    maxCalls: message.maxCalls,
    sent: 0,
    inflight: new Set(),
    importError: null,
  };
  PRELUDE.runInContext(ctx, RUN_OPTIONS);
  job.importError = IMPORT_ERROR.runInContext(ctx, RUN_OPTIONS);
  let module;
  try {
    module = new vm.Script('__td.load(function (__tooldistill) {"use strict";\n' + message.body + "\n});", {
      filename: "tool.js",
      lineOffset: -1,
      importModuleDynamically: () => {
        throw importError();
      },
    });
  } catch (err) {
    // A compile error is made in this realm, so reading its message is safe.
    const text = err instanceof SyntaxError ? err.message : "the module could not be compiled";
    return {
      calls: [],
      done: { ok: false, kind: "bad_module", message: "the module does not parse: " + text },
    };
  }
  runIgnoringResult(module);
  runIgnoringResult(
    new vm.Script("__td.start(" + JSON.stringify(message.input) + ", " + (message.runCheck === true) + ");", {
      filename: "tooldistill-start.js",
    }),
  );
  return pump();
}

// Called by V8 while the tool's code runs: throws the context's own TypeError (made by the prelude).
function importError() {
  if (job === null || typeof job.importError !== "function") return new RunnerError("no job");
  return job.importError();
}

function deliver(message) {
  if (!job.inflight.has(message.id)) throw new RunnerError("reply to an unknown call");
  job.inflight.delete(message.id);
  const payload = message.ok ? message.output : message.error;
  runIgnoringResult(
    new vm.Script(
      "__td.deliver(" + message.id + ", " + (message.ok === true) + ", " + JSON.stringify(payload) + ");",
      { filename: "tooldistill-deliver.js" },
    ),
  );
  return pump();
}

/** Collects what the code asked for since the last round and whether it has finished. */
function pump() {
  const status = JSON.parse(runForString(POLL));
  const calls = [];
  // Past the call cap the parent fails the run anyway: one call over it is enough to say so.
  const wanted = Math.min(status.calls, Math.max(0, job.maxCalls + 1 - job.sent));
  job.sent += wanted;
  for (let i = 0; i < wanted; i++) {
    const head = JSON.parse(runForString(HEAD));
    const args = runForString(ARGS);
    runForString(SHIFT);
    if (!Number.isSafeInteger(head.id) || typeof head.name !== "string") {
      throw new RunnerError("malformed call");
    }
    const argsBytes = byteLength(args);
    if (argsBytes > job.maxMessageBytes) {
      calls.push({ id: head.id, name: head.name, argsBytes });
    } else {
      calls.push({ id: head.id, name: head.name, args });
      job.inflight.add(head.id);
    }
  }
  let done = null;
  if (status.state === "ok") {
    const result = runForString(RESULT);
    const resultBytes = byteLength(result);
    done =
      resultBytes > job.maxMessageBytes
        ? { ok: true, resultBytes, check: status.check }
        : { ok: true, result, check: status.check };
  } else if (status.state === "failed") {
    done = { ok: false, kind: status.kind, message: status.message };
  }
  return { calls, done, idle: done === null && calls.length === 0 && job.inflight.size === 0 };
}

const NEVER_SETTLED = {
  ok: false,
  kind: "code_error",
  message: "the tool's promise never settled: its code is waiting, but not on any base call",
};
const DRAIN = new vm.Script("undefined", { filename: "tooldistill-drain.js" });

function handle(message) {
  if (message === null || typeof message !== "object") return;
  let round;
  try {
    if (message.type === "job" && job === null) round = startJob(message);
    else if (message.type === "reply" && job !== null) round = deliver(message);
    else return;
  } catch (err) {
    round = crashRound(err);
  }
  if (round.idle) {
    // Waiting on nothing we know of. A few engine paths settle through this process's own queues
    // (an import() rejection does): let them run once, drain the context, and look again.
    const current = job;
    setImmediate(() => {
      if (job !== current) return;
      let again;
      try {
        runIgnoringResult(DRAIN);
        again = pump();
      } catch (err) {
        again = crashRound(err);
      }
      finishRound(again.idle ? { calls: [], done: NEVER_SETTLED } : again);
    });
    return;
  }
  finishRound(round);
}

function crashRound(err) {
  const text = err instanceof RunnerError ? err.message : "the sandbox runner failed";
  return { calls: [], done: { ok: false, kind: "crashed", message: text } };
}

function finishRound(round) {
  if (round.done !== null) job = null;
  process.send({ type: "round", calls: round.calls, done: round.done });
}

// A promise the tool's code rejected and never handled is the tool's business (failed base calls are
// tracked by the parent); without this handler Node would end the process.
process.on("unhandledRejection", () => {});
// The parent went away: nobody will read our results.
process.on("disconnect", () => process.exit(0));
process.on("message", handle);
process.send({ type: "ready" });
