/**
 * One run of a tool's code (or of its `check`) on one fresh engine instance, inside an engine worker
 * (sandbox-worker.ts). The instance is made and its prelude evaluated ahead of time (`new SandboxRun`), off the
 * critical path; `begin` gives it its run. The host keeps its own record of everything that decides the outcome
 * (calls and how each ended, time, memory, stops, a not-applicable end); the guest only hands it strings, and it
 * only hands the guest strings and values it parses from JSON itself. Answers of base calls reach the guest in
 * call order, whatever order they arrive in, so a replay (answers at once) and a live run (answers by latency)
 * settle the same way.
 */
import type {
  QuickJSContext,
  QuickJSDeferredPromise,
  QuickJSHandle,
  QuickJSRuntime,
} from "quickjs-emscripten-core";
import { errorMessage } from "../errors.ts";
import { dropEngineInstance, type EngineInstance } from "./quickjs-engine.ts";
import { type AdmittedCall, CallGate, isFailure, readReason } from "./sandbox-calls.ts";
import { RunClock } from "./sandbox-clock.ts";
import { type Api, openContext, type RunSetup } from "./sandbox-context.ts";
import {
  badDefinition,
  checkRefused,
  codeError,
  describedError,
  engineFailure,
  guestFailure,
  memoryFailure,
  readResult,
  unknownFailure,
} from "./sandbox-failures.ts";
import { BODY_PREFIX, TOOL_FILE } from "./sandbox-guest.ts";
import { siteFromStack } from "./sandbox-sites.ts";
import type { SandboxFailure, SandboxLimits, SandboxOutcome } from "./types.ts";

/** A call the gate admitted, with the guest promise its result settles and, once it came, its answer. */
interface Pending extends AdmittedCall {
  deferred: QuickJSDeferredPromise;
  answer?: { json: string } | SandboxFailure;
}

/** One run (or check) on one instance, made ahead with its prelude; never throws for the code; used once. */
export class SandboxRun {
  readonly #instance: EngineInstance;
  readonly #inCheck: boolean;
  /** Test only: the context outlives its run (test/sandbox-isolation.test.ts breaks the isolation with it). */
  readonly #keepForTest: boolean;
  #limits: SandboxLimits | null = null;
  #gate: CallGate | null = null;
  #clock: RunClock | null = null;
  #setup: RunSetup | null = null;
  #rt: QuickJSRuntime | null = null;
  #ctx: QuickJSContext | null = null;
  #api: Api | null = null;
  #failure: SandboxFailure | null = null;
  /** The reason the code gave through the prelude's host function: the run ended as not applicable. */
  #notApplicable: string | null = null;
  #inflight = 0;
  #batch: Pending[] = [];
  /** Dispatched calls whose answers the guest has not had yet, in call order. */
  #queue: Pending[] = [];
  #wake: (() => void) | null = null;

  /** Makes the runtime and context on `instance` and evaluates the prelude: host work, before any run. */
  constructor(instance: EngineInstance, inCheck: boolean, keepForTest = false) {
    this.#instance = instance;
    this.#inCheck = inCheck;
    this.#keepForTest = keepForTest;
    this.#prepare();
  }

  /** The memory cap of this run's instance, in MB: a run asking for another one needs another instance. */
  get memoryMb(): number {
    return this.#instance.memoryMb;
  }

  /** Gives the prepared instance its run: limits, allowlist, sites and how calls are performed. */
  begin(setup: RunSetup, limits: SandboxLimits): void {
    // A no-op for a new instance; for the test-only kept one, what ended its last run.
    this.#failure = null;
    this.#notApplicable = null;
    this.#setup = setup;
    this.#limits = limits;
    this.#gate = new CallGate(
      limits,
      setup.sites ? { allow: setup.allow, sites: setup.sites.sites } : { allow: setup.allow },
    );
    this.#clock = new RunClock(limits, setup.watch);
    this.#rt?.setMaxStackSize(limits.stackKb * 1024);
  }

  /** Every base call the code asked for, in order, with its outcome. */
  get calls() {
    return this.#gate?.calls ?? [];
  }

  /** Runs the tool with `inputJson`; the result is the tool's result as the host parsed it. */
  async run(body: string, inputJson: string): Promise<SandboxOutcome> {
    const limits = this.#limits!;
    const loaded = this.#load(body);
    if (loaded === null) return this.#finish(null);
    const promise = this.#slice(() => this.#guest("run", "", loaded.definition, this.#newString(inputJson)));
    const tagged = promise === null ? null : await this.#settle(promise);
    if (tagged === null) return this.#finish(null);
    const read = readResult(tagged, limits.maxMessageBytes);
    if ("kind" in read) this.#fail(read);
    return this.#finish("kind" in read ? null : read);
  }

  /** Runs the module's `check` on `resultJson` in this instance, which never ran the tool. */
  async check(body: string, resultJson: string): Promise<"passed" | "absent" | SandboxFailure> {
    const loaded = this.#load(body);
    if (loaded === null) return this.#failure ?? unknownFailure();
    if (!loaded.hasCheck) return "absent";
    const verdict = this.#read(
      this.#slice(() =>
        this.#guest("check", "check(result) threw: ", loaded.definition, this.#newString(resultJson)),
      ),
    );
    if (verdict === "P" && !this.#instance.growthRefused()) return "passed";
    if (this.#instance.growthRefused()) this.#fail(memoryFailure(this.#limits!));
    const failure = this.#failure;
    if (failure) return failure.kind === "code_error" ? { ...failure, kind: "check_failed" } : failure;
    return checkRefused(verdict);
  }

  /** The runtime, the context and the prelude, with the host's functions; a failure here is the host's. */
  #prepare(): void {
    const opened = openContext(this.#instance, this.#inCheck, {
      call: (name, args, stack) => this.#hostCall(name, args, stack),
      notApplicable: (reason) => this.#hostNotApplicable(reason),
      interrupt: () => this.#interrupt(),
    });
    if ("kind" in opened) this.#fail(opened);
    else ({ rt: this.#rt, ctx: this.#ctx, api: this.#api } = opened);
  }

  /** Makes the tool's definition from its body; null (with a failure) when it cannot. */
  #load(body: string): { definition: QuickJSHandle; hasCheck: boolean } | null {
    const factory = this.#slice(() => {
      const ctx = this.#ctx;
      if (!ctx || !this.#api) return null;
      // On the first line with the body, so the tool's line numbers are the engine's line numbers.
      const made = ctx.evalCode(`${BODY_PREFIX}${body}\n})`, TOOL_FILE, { type: "global", strict: true });
      if (made.error) {
        this.#failFromGuest(made.error, "", "bad_module");
        return null;
      }
      return made.value;
    });
    if (factory === null) return null;
    const definition = this.#slice(() => this.#guest("define", "the module threw while loading: ", factory));
    if (definition === null) return null;
    const kind = this.#read(this.#slice(() => this.#guest("kind", "", definition)));
    if (kind === "ok" || kind === "no-check") return { definition, hasCheck: kind === "ok" };
    this.#fail(badDefinition(kind));
    return null;
  }

  /** Calls a prelude function; a guest exception fails the run as a code error with `prefix`. */
  #guest(name: keyof Api, prefix: string, ...args: QuickJSHandle[]): QuickJSHandle | null {
    const ctx = this.#ctx;
    const api = this.#api;
    if (!ctx || !api) return null;
    const r = ctx.callFunction(api[name], ctx.undefined, ...args);
    if (r.error) {
      this.#failFromGuest(r.error, prefix, "code_error");
      r.error.dispose();
      return null;
    }
    return r.value;
  }

  #newString(text: string): QuickJSHandle {
    return this.#ctx!.newString(text);
  }

  #read(handle: QuickJSHandle | null): string | null {
    const ctx = this.#ctx;
    if (!ctx || handle === null || this.#failure) return null;
    return ctx.typeof(handle) === "string" ? ctx.getString(handle) : null;
  }

  /** Runs `fn` as a slice of the tool's execution (time and CPU counted); an engine exception ends the run. */
  #slice<T>(fn: () => T | null): T | null {
    if (this.#failure) return null;
    this.#clock!.begin();
    // Emscripten's exit path sets the host's process.exitCode; nothing the engine does may change it.
    const exitCode = process.exitCode;
    try {
      return fn();
    } catch (err) {
      this.#engineThrew(err);
      return null;
    } finally {
      if (process.exitCode !== exitCode) process.exitCode = exitCode;
      this.#clock!.end();
    }
  }

  /** Called by the engine while code runs: true stops the code (an error it cannot catch). */
  #interrupt(): boolean {
    if (this.#failure || this.#notApplicable !== null) return true;
    const passed = this.#clock?.check() ?? null;
    if (passed) this.#fail(passed);
    return passed !== null;
  }

  /** The engine itself threw (not the guest): classified by what the host saw. */
  #engineThrew(err: unknown): void {
    this.#fail(engineFailure(err, this.#instance.growthRefused(), this.#limits!));
  }

  /** A guest exception ended a slice: the host's own observations first, then the error's text. */
  #failFromGuest(error: QuickJSHandle, prefix: string, kind: "code_error" | "bad_module"): void {
    if (this.#failure) return;
    const observed = this.#instance.growthRefused() ? memoryFailure(this.#limits!) : null;
    this.#fail(observed ?? guestFailure(this.#describe(error), prefix, kind));
  }

  /** The error's text with the tool's line where its stack has one; guest text, so clipped. */
  #describe(error: QuickJSHandle): string {
    const ctx = this.#ctx;
    const api = this.#api;
    if (!ctx || !api) return "the tool's code failed";
    const r = ctx.callFunction(api.describe, ctx.undefined, error);
    if (r.error || ctx.typeof(r.value) !== "string")
      return "the tool's code threw a value that cannot be described";
    return describedError(ctx.getString(r.value));
  }

  /**
   * The guest's `call(nameJson, argsJson, stack)`: admitted by the gate, answered by promise. `stack` is the one
   * the prelude took inside `call`; where the run has call sites, the host places the call from it.
   */
  #hostCall(
    nameHandle: QuickJSHandle | undefined,
    argsHandle: QuickJSHandle | undefined,
    stackHandle: QuickJSHandle | undefined,
  ): QuickJSHandle {
    const ctx = this.#ctx!;
    const deferred = ctx.newPromise();
    if (this.#failure || this.#notApplicable !== null || !this.#gate) return deferred.handle;
    const text = (h: QuickJSHandle | undefined) =>
      h && ctx.typeof(h) === "string" ? ctx.getString(h) : null;
    const sites = this.#setup?.sites;
    const site = sites === undefined ? null : siteFromStack(sites, text(stackHandle));
    const admitted = this.#gate.admit(text(nameHandle), text(argsHandle), site);
    if (isFailure(admitted)) this.#fail(admitted);
    else this.#batch.push({ ...admitted, deferred });
    return deferred.handle;
  }

  /** The guest's `notApplicable(reasonJson)`: the first ends the run (unless it already failed). */
  #hostNotApplicable(reasonHandle: QuickJSHandle | undefined): undefined {
    const ctx = this.#ctx!;
    if (this.#failure || this.#notApplicable !== null) return;
    const isText = reasonHandle && ctx.typeof(reasonHandle) === "string";
    this.#notApplicable = readReason(isText ? ctx.getString(reasonHandle) : null);
  }

  /** Sends the calls the code made in the slice that just ended, unless that slice ended the run. */
  #dispatchBatch(): void {
    const batch = this.#batch;
    this.#batch = [];
    if (this.#failure || this.#notApplicable !== null) {
      const at = this.#failure?.step ?? this.calls.length;
      const why = this.#failure ? `the tool was stopped at step ${at}` : "the tool ended with notApplicable";
      for (const p of batch) p.call.error ??= `not run: ${why}`;
      return;
    }
    for (const p of batch) this.#dispatch(p);
  }

  #dispatch(pending: Pending): void {
    this.#inflight++;
    this.#queue.push(pending);
    void this.#setup!.perform(pending).then(
      (answer) => this.#answered(pending, answer),
      (err) => this.#answered(pending, { kind: "engine", cause: "host", message: errorMessage(err) }),
    );
  }

  #answered(pending: Pending, answer: { json: string } | SandboxFailure): void {
    pending.answer = answer;
    this.#inflight--;
    this.#wake?.();
  }

  /**
   * Gives the guest the next answer in call order, if it has come: true when one was handled. Only the oldest
   * undelivered call is looked at, so the guest sees answers in the order it made the calls, in replay and live.
   * The host's handles go once used: what the answer keeps alive is only what the guest's code keeps.
   */
  #deliverNext(): boolean {
    const next = this.#queue[0];
    if (next?.answer === undefined) return false;
    this.#queue.shift();
    const answer = next.answer;
    if (isFailure(answer)) {
      this.#fail(answer);
      return true;
    }
    this.#slice(() => {
      const text = this.#newString(answer.json);
      const value = this.#guest("parse", "", text);
      text.dispose();
      if (value !== null) {
        next.deferred.resolve(value);
        value.dispose();
      }
      return null;
    });
    if (next.deferred.alive) next.deferred.dispose();
    return true;
  }

  /** Pumps the engine's jobs until the run's promise settles; the JSON text of its result, or null. */
  async #settle(promise: QuickJSHandle): Promise<string | null> {
    const ctx = this.#ctx!;
    const rt = this.#rt!;
    for (;;) {
      this.#dispatchBatch();
      this.#slice(() => {
        const jobs = rt.executePendingJobs();
        if (jobs.error) this.#failFromGuest(jobs.error, "", "code_error");
        return null;
      });
      this.#dispatchBatch();
      if (this.#failure || this.#notApplicable !== null) return null;
      const state = ctx.getPromiseState(promise);
      if (state.type === "fulfilled") {
        const json = ctx.typeof(state.value) === "string" ? ctx.getString(state.value) : null;
        if (json === null) this.#fail(codeError("the tool gave no result"));
        return json;
      }
      if (state.type === "rejected") {
        this.#failFromGuest(state.error, "", "code_error");
        return null;
      }
      // One answer at a time, then the jobs it wakes: the same steps whether answers come at once or apart.
      if (this.#deliverNext()) continue;
      if (this.#inflight === 0 && this.#queue.length === 0 && !rt.hasPendingJob()) {
        this.#fail(
          codeError("the tool's promise never settled: its code is waiting, but not on any base call"),
        );
        return null;
      }
      await this.#sleep();
    }
  }

  /** Waits for every dispatched call (their outcomes belong to the record), then gives the outcome. */
  async #finish(done: { result: unknown } | null): Promise<SandboxOutcome> {
    // Calls still in flight finish first; one that fails now fails the run.
    while (this.#inflight > 0) {
      await this.#sleep();
    }
    for (const p of this.#queue) if (p.answer !== undefined && isFailure(p.answer)) this.#fail(p.answer);
    // A run that hit its memory cap fails, whatever its code did with the engine's error.
    if (this.#instance.growthRefused()) this.#fail(memoryFailure(this.#limits!));
    this.#drop();
    const reason = this.#notApplicable;
    if (!this.#failure && reason !== null)
      return { ok: true, result: null, check: "skipped", calls: this.calls, notApplicable: reason };
    if (this.#failure || done === null)
      return { ok: false, failure: this.#failure ?? unknownFailure(), calls: this.calls };
    return { ok: true, result: done.result, check: "skipped", calls: this.calls };
  }

  /** The instance is never reused: the references go, and with them its memory. */
  #drop(): void {
    if (this.#keepForTest) return;
    this.#api = null;
    this.#ctx = null;
    this.#rt = null;
  }

  /**
   * Ends the instance once its outcome is out (off the run's path): nothing here calls into it again, so its
   * memory can be zeroed for a later instance (quickjs-engine.ts).
   */
  dispose(): void {
    this.#drop();
    if (!this.#keepForTest) dropEngineInstance(this.#instance);
  }

  /** Until an answer comes (or the run is ended). */
  async #sleep(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.#wake = resolve;
    });
    this.#wake = null;
  }

  #fail(failure: SandboxFailure): void {
    if (!this.#failure) this.#failure = failure;
  }
}
