/**
 * The engine's worker thread (started by sandbox-workers.ts): it runs one job at a time, each on an engine
 * instance made and given its prelude ahead of time, and asks the main thread for every base call. The host
 * terminates this thread from outside when a slice outlives its deadline (sandbox-clock.ts): QuickJS only
 * polls its interrupt handler between bytecodes, so a builtin looping over a huge length cannot be stopped
 * from inside. Loaded by path, never imported; it needs only `node:` built-ins and the engine.
 */
import { parentPort, workerData } from "node:worker_threads";
import { errorMessage } from "../errors.ts";
import { newEngineInstance, useEngineModule } from "./quickjs-engine.ts";
import type { AdmittedCall } from "./sandbox-calls.ts";
import { SandboxRun } from "./sandbox-run.ts";
import type { FromWorker, Job, ToWorker, WorkerData } from "./sandbox-workers.ts";
import type { SandboxFailure, SandboxOutcome } from "./types.ts";

const port = parentPort;
if (port === null)
  throw new Error("core/sandbox/sandbox-worker.ts runs as a worker thread, started by the sandbox");
const data = workerData as WorkerData;
useEngineModule(data.module);
const watch = new Int32Array(data.watch);
const answers = new Map<number, (answer: { json: string } | SandboxFailure) => void>();
let made = 0;

/** The next run's instance, made and given its prelude while the worker waits for a job. */
let next: Promise<SandboxRun> = prepare(data.memoryMb, false);
// Once, when the first is ready; later instances are counted in each job's "done" (one message less per run).
void next.then(
  () => post({ type: "ready", made: take() }),
  () => post({ type: "ready", made: take() }),
);
/** Test only: the one run every job reuses (`breakRunIsolationForTest`). */
let kept: SandboxRun | null = null;

port.on("message", (msg: ToWorker) => {
  if (msg.type === "answer") answers.get(msg.step)?.(msg.answer);
  else void runJob(msg);
});

async function prepare(memoryMb: number, inCheck: boolean): Promise<SandboxRun> {
  const instance = await newEngineInstance(memoryMb);
  made++;
  return new SandboxRun(instance, inCheck, data.reuseRunsForTest === true && !inCheck);
}

function take(): number {
  const n = made;
  made = 0;
  return n;
}

function post(msg: FromWorker): void {
  port!.postMessage(msg);
}

async function runJob(job: Job): Promise<void> {
  let outcome: SandboxOutcome;
  const used: SandboxRun[] = [];
  try {
    outcome = await execute(job, used);
  } catch (err) {
    outcome = {
      ok: false,
      failure: { kind: "engine", cause: "host", message: `the sandbox engine failed: ${errorMessage(err)}` },
      calls: [],
    };
  }
  answers.clear();
  post({ type: "done", id: job.id, outcome, made: take() });
  // After the outcome is out: the instances the job used go (their memories zeroed), and the next one is made.
  for (const run of used) run.dispose();
  if (data.reuseRunsForTest === true && kept !== null) next = Promise.resolve(kept);
  else next = prepare(data.memoryMb, false);
}

async function execute(job: Job, used: SandboxRun[]): Promise<SandboxOutcome> {
  const { limits } = job;
  let run = await next;
  used.push(run);
  if (run.memoryMb !== limits.memoryMb) {
    run = await prepare(limits.memoryMb, false);
    used.push(run);
  }
  if (data.reuseRunsForTest === true) kept ??= run;
  const perform = (admitted: AdmittedCall) =>
    new Promise<{ json: string } | SandboxFailure>((resolve) => {
      answers.set(admitted.step, resolve);
      // The outcomes the call's site declared, from the host's own record of the site (the parse, placed by the
      // stack the prelude took): the main thread lets an outcome apply only with these.
      const site = admitted.call.site === undefined ? undefined : job.sites?.sites[admitted.call.site - 1];
      const outcomes = site?.id === admitted.call.site ? site?.outcomes : undefined;
      post({
        type: "call",
        id: job.id,
        step: admitted.step,
        tool: admitted.call.tool,
        args: admitted.call.args,
        ...(outcomes ? { outcomes } : {}),
      });
    });
  const sites = job.sites && { sites: job.sites.sites, at: new Map(job.sites.at) };
  run.begin({ allow: job.allow, perform, watch, ...(sites ? { sites } : {}) }, limits);
  // The check's own instance is made while the run waits for its base calls, not after it.
  const checking = job.runCheck ? prepare(limits.memoryMb, true) : null;
  checking?.then(
    (checker) => used.push(checker),
    () => {},
  );
  const outcome = await run.run(job.body, job.input);
  if (!outcome.ok || checking === null || outcome.notApplicable !== undefined) {
    await checking?.catch(() => {});
    return outcome;
  }
  // The check runs in an instance of its own, on the result as JSON: the run cannot reach it.
  const checker = await checking;
  checker.begin({ allow: [], perform: refuseCall, watch }, limits);
  const verdict = await checker.check(job.body, JSON.stringify(outcome.result));
  return verdict === "passed" || verdict === "absent"
    ? { ...outcome, check: verdict }
    : { ok: false, failure: verdict, calls: outcome.calls };
}

async function refuseCall(): Promise<SandboxFailure> {
  return { kind: "code_error", cause: "tool", message: "call() is not available in check()" };
}
