/**
 * What a distilled tool's code sees inside the sandbox engine: the globals it does not have, and the
 * prelude that defines `distilledTool` and `call` before the tool's code runs. The prelude is source text
 * evaluated inside the engine; it never refers to anything of the host.
 */

/**
 * `Date` is there without a clock: it parses, converts and formats the times a tool is given (`Date.parse`,
 * `new Date(value)`, `Date.UTC`, every method), but `Date.now()`, `new Date()` and `Date()` with no value
 * throw with this reason. Local-time methods follow the host's time zone: use the UTC ones.
 */
export const NO_CLOCK = "a distilled tool has no clock: take the time as an input or from a base tool";

/**
 * Globals that do not exist for a tool's code, with the reason given to whoever uses one. The engine
 * leaves some out (QuickJS has no timers, `WebAssembly` or `process`), the context is made without
 * others (`Proxy`, typed arrays and with them shared memory), and the prelude deletes the rest. The static check refuses
 * every name here with the same reason, so a proposal learns it before it runs.
 */
export const ABSENT_GLOBALS: Readonly<Record<string, string>> = Object.freeze({
  setTimeout: "a distilled tool has no timers",
  setInterval: "a distilled tool has no timers",
  setImmediate: "a distilled tool has no timers",
  clearTimeout: "a distilled tool has no timers",
  clearInterval: "a distilled tool has no timers",
  queueMicrotask: "a distilled tool has no timers",
  performance: NO_CLOCK,
  eval: "a distilled tool cannot generate code from strings",
  Function: "a distilled tool cannot generate code from strings",
  WebAssembly: "a distilled tool cannot load WebAssembly",
  SharedArrayBuffer: "a distilled tool has no shared memory",
  Atomics: "a distilled tool has no shared memory",
  WeakRef: "a distilled tool cannot observe garbage collection",
  FinalizationRegistry: "a distilled tool cannot observe garbage collection",
  Proxy: "a distilled tool has no Proxy",
});

/** Members of globals that are absent, with the reason (e.g. `Math.random`). */
export const ABSENT_MEMBERS: Readonly<Record<string, string>> = Object.freeze({
  "Math.random": "a distilled tool has no randomness: take random values as an input or from a base tool",
  "Date.now": NO_CLOCK,
});

/**
 * What the host hands the prelude's `parse` in place of a result's JSON when a call's site declared the outcome
 * its base call answered (declared-outcomes.ts): this, then the outcome's name. No JSON text starts with "!".
 */
export const OUTCOME_TAG = "!outcome:";

/** The parameter through which the tool's body receives the library object (module-body.ts makes the body). */
export const LIBRARY_PARAM = "__tooldistill";

/**
 * What the engine evaluates is `${BODY_PREFIX}${body}\n})`: the body on the prefix's line, so the tool's line
 * numbers are the engine's. Only the columns of line 1 move, by the prefix's length (sandbox-sites.ts maps them).
 */
export const BODY_PREFIX = `(function (${LIBRARY_PARAM}) {"use strict";`;

/** The file name the engine gives the tool's code, so errors and stacks say `tool.ts:<line>`. */
export const TOOL_FILE = "tool.ts";

/**
 * The prelude, a function expression evaluated in a fresh context and called once by the host with the
 * host's `call` function (which takes a name, a JSON string and the stack at the call, and returns a promise),
 * `inCheck`, and the host's `notApplicable` function (which takes the reason as a JSON string). Only the prelude
 * holds the host functions: the tool reaches them through `call` and `notApplicable` of the library object, so the
 * host knows a run ended as not applicable from its own record of that call, never from anything the tool returns
 * or throws.
 * It returns a frozen object of functions the host calls by handle; they return strings, booleans or
 * promises of strings, nothing else. It captures what it uses before the tool's code can change it.
 */
export const PRELUDE = `(function (hostCall, inCheck, hostNotApplicable) {
  "use strict";
  const G = globalThis;
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const freeze = Object.freeze;
  const defineProperty = Object.defineProperty;
  const getPrototypeOf = Object.getPrototypeOf;
  const StringCtor = String;
  const TypeErrorCtor = TypeError;
  const construct = Reflect.construct;
  const apply = Reflect.apply;
  const hasOwn = Object.hasOwn;
  const then = Promise.prototype.then;
  const startsWith = String.prototype.startsWith;
  const slice = String.prototype.slice;
  const ErrorCtor = Error;
  const ownDescriptor = Object.getOwnPropertyDescriptor;

  // No code generation from strings: eval goes, and so does every Function constructor reachable from a
  // function's prototype chain (plain, async, generator, async generator).
  const refuse = function () {
    throw new EvalError("a distilled tool cannot generate code from strings");
  };
  for (const fn of [function () {}, async function () {}, function* () {}, async function* () {}]) {
    defineProperty(getPrototypeOf(fn), "constructor", { value: refuse, writable: false, configurable: false });
  }
  for (const name of ["eval", "Function", "WeakRef", "FinalizationRegistry", "SharedArrayBuffer", "Atomics"]) {
    delete G[name];
  }
  delete Math.random;

  // Date without a clock: every use that would read the time throws; parsing and formatting stay.
  const RealDate = Date;
  const noClock = () => new TypeErrorCtor(${JSON.stringify(NO_CLOCK)});
  const ClocklessDate = function Date(...args) {
    if (new.target === undefined || args.length === 0) throw noClock();
    return construct(RealDate, args, new.target);
  };
  defineProperty(ClocklessDate, "prototype", { value: RealDate.prototype, writable: false });
  defineProperty(ClocklessDate, "parse", { value: RealDate.parse, writable: true, configurable: true });
  defineProperty(ClocklessDate, "UTC", { value: RealDate.UTC, writable: true, configurable: true });
  defineProperty(ClocklessDate, "now", {
    value: function now() {
      throw noClock();
    },
    writable: true,
    configurable: true,
  });
  defineProperty(RealDate.prototype, "constructor", { value: ClocklessDate, writable: true, configurable: true });
  defineProperty(G, "Date", { value: ClocklessDate, writable: true, configurable: true });

  const call = inCheck
    ? function call() {
        throw new TypeErrorCtor("call() is not available in check(): check only looks at the result");
      }
    : function call(name, args, outcomes) {
        // The engine's own stack, taken here with the Error captured above and read as an own data property
        // (nothing the tool changed on Error or its prototype runs): the host finds the call's site in it, and
        // judges there whether the site declared the outcome a base call answered (the third argument).
        const at = ownDescriptor(new ErrorCtor(), "stack");
        // Name and arguments cross as JSON text: a C string would end at a NUL inside a name.
        const answer = hostCall(
          typeof name === "string" ? stringify(name) : undefined,
          stringify(args === undefined ? {} : args),
          at !== undefined && typeof at.value === "string" ? at.value : undefined,
        );
        // The handlers stay here: the host only says which declared outcome its base call answered.
        return apply(then, answer, [(value) => (value instanceof Outcome ? handle(outcomes, value.name) : value)]);
      };
  // The signal that a call's site declared the outcome its base call answered; only parse below makes one.
  function Outcome(name) {
    this.name = name;
  }
  function handle(outcomes, name) {
    const handler = outcomes !== null && typeof outcomes === "object" && hasOwn(outcomes, name) ? outcomes[name] : undefined;
    if (typeof handler !== "function") throw new TypeErrorCtor("no handler for the declared outcome '" + name + "'");
    return handler();
  }
  // The host records the outcome before the throw, which only unwinds the tool's code: whatever the code does
  // next (a caught throw, a returned value, another call) the run has ended as not applicable.
  const notApplicable = inCheck
    ? function notApplicable() {
        throw new TypeErrorCtor("notApplicable() is not available in check(): check only looks at the result");
      }
    : function notApplicable(reason) {
        hostNotApplicable(stringify(typeof reason === "string" ? reason : StringCtor(reason)));
        throw new TypeErrorCtor("notApplicable: the tool ended on purpose");
      };
  const lib = freeze({ distilledTool: (definition) => definition, call, notApplicable });

  // The host reads strings only; "\u001f" separates the parts of one (a C string would stop at a NUL).
  function describe(error) {
    let text;
    if (error !== null && typeof error === "object" && typeof error.message === "string") {
      const name = typeof error.name === "string" ? error.name : "Error";
      text = name === "Error" ? error.message : name + ": " + error.message;
    } else {
      text = StringCtor(error);
    }
    const stack = error !== null && typeof error === "object" && typeof error.stack === "string" ? error.stack : "";
    return text + "\u001f" + stack;
  }

  return freeze({
    // A call's answer: its result's JSON, or the tag of a declared outcome (never JSON) that runs the handler.
    parse(text) {
      const tag = ${JSON.stringify(OUTCOME_TAG)};
      return apply(startsWith, text, [tag]) ? new Outcome(apply(slice, text, [tag.length])) : parse(text);
    },
    describe,
    define(factory) {
      return factory(lib);
    },
    kind(definition) {
      if (definition === null || typeof definition !== "object") return "not-object";
      if (typeof definition.run !== "function") return "no-run";
      const check = definition.check;
      if (check !== undefined && typeof check !== "function") return "bad-check";
      return check === undefined ? "no-check" : "ok";
    },
    // "R" and the result's JSON, or "U" and why it has none.
    async run(definition, inputJson) {
      const result = await definition.run(parse(inputJson));
      let json;
      try {
        json = stringify(result);
      } catch (error) {
        return "U" + describe(error);
      }
      return "R" + (json === undefined ? "null" : json);
    },
    // "P" when it held, "A" when it answered with a promise, "F" and what it returned otherwise.
    check(definition, resultJson) {
      const verdict = definition.check(parse(resultJson));
      if (verdict !== null && (typeof verdict === "object" || typeof verdict === "function")) {
        if (typeof verdict.then === "function") return "A";
      }
      if (verdict) return "P";
      return "F" + (typeof verdict === "string" ? stringify(verdict) : StringCtor(verdict));
    },
  });
})`;
