/**
 * Runs distilled tools (LLM-written code) in a child process: `node --permission` with an empty environment,
 * a heap cap and no code generation from strings, inside a fresh `node:vm` context per job that holds no host
 * object at all (see sandbox-runner.js). This parent treats the child as untrusted: it enforces the deadline
 * on the child's own computing time, the call and message caps, the base tool allowlist, and it records every
 * base call itself so that no failed call can be hidden by the tool's code.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { stripTypeScriptTypes } from "node:module";
import type { Socket } from "node:net";
import { fileURLToPath } from "node:url";
import { parse } from "@babel/parser";
import { DistillError, errorMessage } from "./errors.ts";

/** Resource limits of one sandboxed run. */
export interface SandboxLimits {
  /** The tool's own computing time in ms; time waiting for base calls does not count. */
  cpuMs: number;
  /** Heap cap of the child (`--max-old-space-size`). */
  memoryMb: number;
  /** Most base calls one run may make. */
  maxCalls: number;
  /** Largest JSON message in bytes: one call's arguments, one call's result, or the tool's result. */
  maxMessageBytes: number;
}

/** Limits used where neither the sandbox options nor the run request say otherwise. */
export const DEFAULT_LIMITS: SandboxLimits = Object.freeze({
  cpuMs: 2000,
  memoryMb: 64,
  maxCalls: 200,
  maxMessageBytes: 1024 * 1024,
});

/** One base call the tool requested, in order, with its outcome. */
export interface SandboxCall {
  tool: string;
  args: Record<string, unknown>;
  ok: boolean;
  output?: unknown;
  error?: string;
}

/** Why a sandboxed run failed. */
export type SandboxFailureKind =
  | "call_failed"
  | "code_error"
  | "check_failed"
  | "timeout"
  | "memory"
  | "call_limit"
  | "message_limit"
  | "not_allowed"
  | "bad_module"
  | "crashed";

/** A failed run: `step` is the 1-based index in `calls` of the call that failed it, where a call did. */
export interface SandboxFailure {
  kind: SandboxFailureKind;
  message: string;
  step?: number;
  tool?: string;
}

/** What a sandboxed run gives back: always a value, never a throw, for anything the tool's code does. */
export type SandboxOutcome =
  | { ok: true; result: unknown; check: "passed" | "absent" | "skipped"; calls: SandboxCall[] }
  | { ok: false; failure: SandboxFailure; calls: SandboxCall[] };

/** One run of a tool module. */
export interface SandboxRunRequest {
  /** TypeScript source of the tool module. */
  source: string;
  input: Record<string, unknown>;
  /** Base tools this tool may call. */
  allow: readonly string[];
  /** Host dispatcher for base calls: a throw fails that call (and the run). Its own timeout is the host's. */
  call: (tool: string, args: Record<string, unknown>) => Promise<unknown>;
  /** Run the module's `check(result)` too; a throw or a falsy return fails the run with `check_failed`. */
  runCheck?: boolean;
  limits?: Partial<SandboxLimits>;
}

/** Options of a sandbox pool. */
export interface SandboxOptions {
  /** Warm children kept ready (default 2); 0 spawns a child per run. */
  poolSize?: number;
  limits?: Partial<SandboxLimits>;
  /** Where sandbox-runner.js is, when this module is bundled away from it. */
  runnerPath?: string;
}

/** Counters of a sandbox pool, for diagnostics and tests. */
export interface SandboxStats {
  /** Children spawned since the sandbox was made. */
  spawned: number;
  /** Children waiting (or starting) for a job. */
  idle: number;
  /** Children running a job. */
  busy: number;
}

const FAILURE_KINDS_FROM_CHILD = new Set(["code_error", "check_failed", "bad_module", "crashed"]);
const READY_TIMEOUT_MS = 15_000;
const STDERR_TAIL_CHARS = 4000;
const LIBRARY_PARAM = "__tooldistill";
const DEFAULT_BINDING = "__tooldistill_default";

// ---------------------------------------------------------------------------------------------------------
// Module → function body

/**
 * Strips a tool module's types and turns it into a strict function body that takes the library object
 * (`{ distilledTool, call }`) as `__tooldistill` and returns the default export.
 * Throws DistillError("PROPOSAL_INVALID") when the source cannot be made into one.
 */
export function toFunctionBody(source: string): string {
  const js = stripTypes(source);
  let program: ReturnType<typeof parse>["program"];
  try {
    program = parse(js, { sourceType: "module" }).program;
  } catch (err) {
    throw new DistillError("PROPOSAL_INVALID", `the tool's code does not parse: ${errorMessage(err)}`, {
      cause: err,
    });
  }

  const edits: { start: number; end: number; text: string }[] = [];
  let exported: string | null = null;
  for (const node of program.body) {
    const start = node.start ?? 0;
    const end = node.end ?? start;
    const line = node.loc?.start.line ?? 0;
    if (node.type === "ImportDeclaration") {
      if (node.source.value !== "tooldistill") {
        throw new DistillError(
          "PROPOSAL_INVALID",
          `line ${line}: a tool module may import only from "tooldistill" (found "${node.source.value}")`,
        );
      }
      edits.push({ start, end, text: keepLines(importBinding(node.specifiers, line), js.slice(start, end)) });
    } else if (node.type === "ExportDefaultDeclaration") {
      const decl = node.declaration;
      const declStart = decl.start ?? start;
      const named =
        (decl.type === "FunctionDeclaration" || decl.type === "ClassDeclaration") && decl.id
          ? decl.id.name
          : null;
      if (named !== null) {
        // A named declaration stays a declaration (hoisting as in the module); only `export default` goes.
        edits.push({ start, end: declStart, text: "" });
        exported = named;
      } else {
        edits.push({ start, end: declStart, text: `const ${DEFAULT_BINDING} = ` });
        if (decl.type === "FunctionDeclaration" || decl.type === "ClassDeclaration") {
          // An anonymous declaration becomes an expression statement and needs its own terminator.
          edits.push({ start: decl.end ?? end, end: decl.end ?? end, text: ";" });
        }
        exported = DEFAULT_BINDING;
      }
    } else if (node.type === "ExportNamedDeclaration" || node.type === "ExportAllDeclaration") {
      // Type-only exports are left as `export {};` by type stripping.
      const empty =
        node.type === "ExportNamedDeclaration" && !node.declaration && node.specifiers.length === 0;
      if (!empty || node.source) {
        throw new DistillError(
          "PROPOSAL_INVALID",
          `line ${line}: a tool module exports only its default (export default distilledTool({...}))`,
        );
      }
      edits.push({ start, end, text: "" });
    }
  }
  if (exported === null) {
    throw new DistillError(
      "PROPOSAL_INVALID",
      "the tool's code has no `export default distilledTool({...})`",
    );
  }

  let body = "";
  let at = 0;
  for (const edit of edits.sort((a, b) => a.start - b.start)) {
    body += js.slice(at, edit.start) + edit.text;
    at = edit.end;
  }
  // The return comes last so that code after `export default` (helpers, constants) still runs first.
  body += `${js.slice(at)}\nreturn ${exported};\n`;

  let script: ReturnType<typeof parse>["program"];
  try {
    // What parses as a module may not parse as a function body (top-level await, import.meta).
    script = parse(body, {
      sourceType: "script",
      strictMode: true,
      allowReturnOutsideFunction: true,
      allowNewTargetOutsideFunction: true,
    }).program;
  } catch (err) {
    throw new DistillError("PROPOSAL_INVALID", `the tool's code cannot run as a tool: ${errorMessage(err)}`, {
      cause: err,
    });
  }
  // `import()` would reach the child's module loader. With code generation off in the context it can only
  // be written literally, so finding it in the syntax tree is complete; the runner also refuses it.
  const dynamicImport = findNode(script, (n) => n.type === "Import" || n.type === "ImportExpression");
  if (dynamicImport) {
    throw new DistillError(
      "PROPOSAL_INVALID",
      `line ${dynamicImport.loc?.start.line ?? "?"}: import() is not available in a distilled tool`,
    );
  }
  return body;
}

interface SyntaxNode {
  type: string;
  loc?: { start: { line: number } } | null;
}

/** The first node of a Babel tree matching `test`, walked without recursion (deep trees stay safe). */
function findNode(root: object, test: (node: SyntaxNode) => boolean): SyntaxNode | null {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (Array.isArray(value)) {
      for (const item of value) stack.push(item);
      continue;
    }
    if (typeof value !== "object" || value === null) continue;
    const node = value as Record<string, unknown>;
    if (typeof node["type"] === "string" && test(node as unknown as SyntaxNode))
      return node as unknown as SyntaxNode;
    for (const [key, child] of Object.entries(node)) {
      if (
        key !== "loc" &&
        key !== "leadingComments" &&
        key !== "trailingComments" &&
        key !== "innerComments"
      ) {
        stack.push(child);
      }
    }
  }
  return null;
}

type ImportSpecifiers = Extract<
  ReturnType<typeof parse>["program"]["body"][number],
  { type: "ImportDeclaration" }
>["specifiers"];

/** `import { call as c } from "tooldistill"` → `const { call: c } = __tooldistill;` */
function importBinding(specifiers: ImportSpecifiers, line: number): string {
  const props: string[] = [];
  const statements: string[] = [];
  for (const spec of specifiers) {
    if (spec.type === "ImportNamespaceSpecifier") {
      statements.push(`const ${spec.local.name} = ${LIBRARY_PARAM};`);
    } else if (spec.type === "ImportDefaultSpecifier") {
      throw new DistillError(
        "PROPOSAL_INVALID",
        `line ${line}: "tooldistill" has no default export; import { distilledTool, call } from "tooldistill"`,
      );
    } else {
      const imported = spec.imported.type === "Identifier" ? spec.imported.name : spec.imported.value;
      if (imported !== "distilledTool" && imported !== "call") {
        throw new DistillError(
          "PROPOSAL_INVALID",
          `line ${line}: "tooldistill" exports only distilledTool and call (found '${imported}')`,
        );
      }
      props.push(imported === spec.local.name ? imported : `${imported}: ${spec.local.name}`);
    }
  }
  if (props.length > 0) statements.unshift(`const { ${props.join(", ")} } = ${LIBRARY_PARAM};`);
  return statements.join(" ");
}

/** Pads a replacement with the newlines of the text it replaces, so line numbers stay those of the source. */
function keepLines(text: string, replaced: string): string {
  const newlines = replaced.split("\n").length - 1;
  return text + "\n".repeat(newlines);
}

/**
 * `stripTypeScriptTypes` emits a one-time ExperimentalWarning that must never reach users' output: only that
 * warning is dropped, for the duration of the (synchronous) call.
 */
function stripTypes(source: string): string {
  const original = process.emitWarning;
  const filtered = function (this: NodeJS.Process, warning: string | Error, ...rest: unknown[]): void {
    if (isTypeStrippingWarning(warning, rest[0])) return;
    Reflect.apply(original, this, [warning, ...rest]);
  };
  process.emitWarning = filtered as typeof process.emitWarning;
  try {
    return stripTypeScriptTypes(source, { mode: "strip" });
  } catch (err) {
    const unsupported = (err as { code?: unknown } | null)?.code === "ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX";
    const message = unsupported
      ? `the tool's code uses TypeScript that is not erasable (use only erasable syntax): ${errorMessage(err)}`
      : `the tool's code does not parse: ${errorMessage(err)}`;
    throw new DistillError("PROPOSAL_INVALID", message, { cause: err });
  } finally {
    process.emitWarning = original;
  }
}

function isTypeStrippingWarning(warning: string | Error, typeOrOptions: unknown): boolean {
  const message = typeof warning === "string" ? warning : warning.message;
  const type =
    typeof warning !== "string"
      ? warning.name
      : typeof typeOrOptions === "string"
        ? typeOrOptions
        : typeof typeOrOptions === "object" && typeOrOptions !== null
          ? (typeOrOptions as { type?: unknown }).type
          : undefined;
  return type === "ExperimentalWarning" && /strip ?TypeScript ?Types|type stripping/i.test(message);
}

// ---------------------------------------------------------------------------------------------------------
// Child processes

type ChildReply =
  | { type: "reply"; id: number; ok: true; output: string }
  | { type: "reply"; id: number; ok: false; error: string };
interface ChildJob {
  type: "job";
  body: string;
  input: string;
  runCheck: boolean;
  maxMessageBytes: number;
  maxCalls: number;
}

/** One sandbox child process and what this parent knows of it. */
class Child {
  readonly proc: ChildProcess;
  readonly memoryMb: number;
  readonly ready: Promise<boolean>;
  alive = true;
  stderr = "";
  run: Run | null = null;
  readonly exited: Promise<void>;
  #onReady: (ok: boolean) => void = () => {};
  readonly #onExit: (child: Child) => void;
  #exitHandled = false;

  constructor(runnerPath: string, memoryMb: number, onExit: (child: Child) => void) {
    this.memoryMb = memoryMb;
    this.#onExit = onExit;
    this.ready = new Promise((resolve) => {
      this.#onReady = resolve;
    });
    this.proc = spawn(
      process.execPath,
      [
        "--permission",
        `--max-old-space-size=${memoryMb}`,
        "--disallow-code-generation-from-strings",
        // Lets the runner's importModuleDynamically callback answer `import()` with the context's own
        // error; without it Node rejects with an error object of the child's realm, a host object.
        "--experimental-vm-modules",
        runnerPath,
      ],
      { env: {}, stdio: ["ignore", "ignore", "pipe", "ipc"], serialization: "json", windowsHide: true },
    );
    const readyTimer = setTimeout(() => this.kill(), READY_TIMEOUT_MS);
    readyTimer.unref();
    this.proc.stderr?.setEncoding("utf8");
    this.proc.stderr?.on("data", (chunk: string) => {
      this.stderr = (this.stderr + chunk).slice(-STDERR_TAIL_CHARS);
    });
    this.proc.on("message", (message: unknown) => {
      if (isObject(message) && message["type"] === "ready") {
        clearTimeout(readyTimer);
        this.#onReady(true);
      } else if (this.run) {
        this.run.onMessage(message);
      } else {
        // A message with no job is outside the protocol: this child is not trusted any more.
        this.kill();
      }
    });
    // A failed spawn reports "error" and may never report "close".
    this.proc.on("error", () => {
      this.kill();
      this.#exited();
    });
    this.exited = new Promise((resolve) => {
      this.proc.on("close", () => {
        clearTimeout(readyTimer);
        this.#exited();
        resolve();
      });
      this.proc.on("error", () => resolve());
    });
  }

  #exited(): void {
    if (this.#exitHandled) return;
    this.#exitHandled = true;
    this.alive = false;
    this.#onReady(false);
    this.#onExit(this);
  }

  send(message: ChildJob | ChildReply): void {
    if (!this.alive || !this.proc.connected) return;
    try {
      this.proc.send(message);
    } catch {
      this.kill();
    }
  }

  kill(): void {
    if (this.proc.exitCode === null && this.proc.signalCode === null) this.proc.kill("SIGKILL");
  }

  /** While a job runs, the child keeps the parent's event loop alive; idle, it must not. */
  ref(): void {
    this.proc.ref();
    this.proc.channel?.ref();
    (this.proc.stderr as Socket | null)?.ref();
  }

  unref(): void {
    this.proc.unref();
    this.proc.channel?.unref();
    (this.proc.stderr as Socket | null)?.unref();
  }
}

// ---------------------------------------------------------------------------------------------------------
// One run

interface RoundCall {
  id: number;
  name: string;
  args?: string;
  argsBytes?: number;
}

type Done =
  | { ok: true; result?: string; resultBytes?: number; check: "passed" | "absent" | "skipped" }
  | { ok: false; kind: SandboxFailureKind; message: string };

/** The state of one job on one child: the parent's own record of calls, failures and busy time. */
class Run {
  readonly calls: SandboxCall[] = [];
  readonly #child: Child;
  readonly #req: SandboxRunRequest;
  readonly #limits: SandboxLimits;
  readonly #allow: Set<string>;
  readonly #resolve: (outcome: SandboxOutcome) => void;
  readonly #release: (child: Child, clean: boolean) => void;
  readonly #seenIds = new Set<number>();
  #failure: SandboxFailure | null = null;
  #done: { result: unknown; check: "passed" | "absent" | "skipped" } | null = null;
  #inflight = 0;
  #unacked = 0;
  #busyMs = 0;
  #busySince = 0;
  #timer: NodeJS.Timeout | null = null;
  #finished = false;
  #killed = false;
  #childFinished = false;

  constructor(
    child: Child,
    req: SandboxRunRequest,
    limits: SandboxLimits,
    resolve: (outcome: SandboxOutcome) => void,
    release: (child: Child, clean: boolean) => void,
  ) {
    this.#child = child;
    this.#req = req;
    this.#limits = limits;
    this.#allow = new Set(req.allow);
    this.#resolve = resolve;
    this.#release = release;
  }

  start(body: string, input: string): void {
    this.#child.run = this;
    this.#sent();
    this.#child.send({
      type: "job",
      body,
      input,
      runCheck: this.#req.runCheck === true,
      maxMessageBytes: this.#limits.maxMessageBytes,
      maxCalls: this.#limits.maxCalls,
    });
  }

  /** The busy clock runs while the child holds a job or reply it has not answered with a round. */
  #sent(): void {
    this.#unacked++;
    if (this.#unacked !== 1) return;
    this.#busySince = performance.now();
    this.#timer = setTimeout(() => this.#deadline(), Math.max(0, this.#limits.cpuMs - this.#busyMs));
  }

  #acked(): void {
    if (this.#unacked === 0) return;
    this.#unacked--;
    if (this.#unacked !== 0) return;
    this.#busyMs += performance.now() - this.#busySince;
    this.#stopClock();
  }

  #stopClock(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }

  #deadline(): void {
    this.#timer = null;
    this.#fail({
      kind: "timeout",
      message: `the tool's code ran for more than ${this.#limits.cpuMs} ms of its own time and was stopped`,
    });
    this.#maybeFinish();
  }

  onMessage(message: unknown): void {
    if (this.#finished) return;
    const round = parseRound(message);
    if (round === null) {
      this.#fail({
        kind: "crashed",
        message: "the sandbox process sent a malformed message and was stopped",
      });
      this.#maybeFinish();
      return;
    }
    this.#acked();
    if (this.#failure || this.#done) return;
    if (round.calls.length > 0) this.#takeCalls(round.calls);
    if (round.done) {
      this.#childFinished = true;
      if (!this.#failure) this.#takeDone(round.done);
    }
    this.#maybeFinish();
  }

  /** Checks a batch of requested calls before running any, so a doomed batch changes nothing outside. */
  #takeCalls(batch: RoundCall[]): void {
    const entries: { call: SandboxCall; id: number }[] = [];
    let failure: SandboxFailure | null = null;
    for (const requested of batch) {
      const step = this.calls.length + entries.length + 1;
      const entry: SandboxCall = { tool: requested.name, args: {}, ok: false };
      entries.push({ call: entry, id: requested.id });
      if (this.#seenIds.has(requested.id)) {
        failure = { kind: "crashed", message: "the sandbox process repeated a call id and was stopped" };
        break;
      }
      this.#seenIds.add(requested.id);
      const bytes = requested.args === undefined ? requested.argsBytes : Buffer.byteLength(requested.args);
      let args: Record<string, unknown> | null = null;
      if (requested.args !== undefined && bytes !== undefined && bytes <= this.#limits.maxMessageBytes) {
        args = parseObject(requested.args);
        if (args === null) {
          failure = {
            kind: "crashed",
            message: "the sandbox process sent malformed call arguments and was stopped",
          };
          break;
        }
        entry.args = args;
      }
      if (step > this.#limits.maxCalls) {
        entry.error = `not run: more than ${this.#limits.maxCalls} base calls`;
        failure = {
          kind: "call_limit",
          message: `the tool made more than ${this.#limits.maxCalls} base calls and was stopped`,
          step,
          tool: requested.name,
        };
        break;
      }
      if (!this.#allow.has(requested.name)) {
        const allowed = [...this.#allow].map((t) => `'${t}'`).join(", ") || "none";
        entry.error = `not allowed: this tool may call only ${allowed}`;
        failure = {
          kind: "not_allowed",
          message: `call ${step} to '${requested.name}' is not allowed: this tool may call only ${allowed}`,
          step,
          tool: requested.name,
        };
        break;
      }
      if (args === null) {
        entry.error = `not run: its arguments are ${bytes} bytes, more than the ${this.#limits.maxMessageBytes}-byte limit`;
        failure = {
          kind: "message_limit",
          message: `the arguments of call ${step} to '${requested.name}' are ${bytes} bytes, more than the ${this.#limits.maxMessageBytes}-byte limit`,
          step,
          tool: requested.name,
        };
        break;
      }
    }
    if (failure) {
      const failedStep = failure.step ?? this.calls.length + entries.length;
      for (const { call } of entries) {
        call.error ??= `not run: the tool was stopped at step ${failedStep}`;
        this.calls.push(call);
      }
      this.#fail(failure);
      return;
    }
    for (const { call, id } of entries) {
      this.calls.push(call);
      this.#dispatch(call, id, this.calls.length);
    }
  }

  #dispatch(entry: SandboxCall, id: number, step: number): void {
    this.#inflight++;
    Promise.resolve()
      .then(() => this.#req.call(entry.tool, entry.args))
      .then(
        (output) => this.#callSucceeded(entry, id, step, output),
        (err: unknown) => {
          entry.error = errorMessage(err);
          this.#fail({ kind: "call_failed", message: entry.error, step, tool: entry.tool });
        },
      )
      .finally(() => {
        this.#inflight--;
        this.#maybeFinish();
      });
  }

  #callSucceeded(entry: SandboxCall, id: number, step: number, output: unknown): void {
    let json: string | undefined;
    try {
      json = JSON.stringify(output);
    } catch (err) {
      entry.error = `its result is not JSON-serialisable: ${errorMessage(err)}`;
      this.#fail({
        kind: "call_failed",
        message: `base tool '${entry.tool}' returned a value that is not JSON-serialisable: ${errorMessage(err)}`,
        step,
        tool: entry.tool,
      });
      return;
    }
    json ??= "null";
    const bytes = Buffer.byteLength(json);
    if (bytes > this.#limits.maxMessageBytes) {
      entry.error = `its result is ${bytes} bytes, more than the ${this.#limits.maxMessageBytes}-byte limit`;
      this.#fail({
        kind: "message_limit",
        message: `the result of call ${step} to '${entry.tool}' is ${bytes} bytes, more than the ${this.#limits.maxMessageBytes}-byte limit`,
        step,
        tool: entry.tool,
      });
      return;
    }
    entry.ok = true;
    entry.output = JSON.parse(json);
    if (this.#failure || this.#done || this.#finished) return;
    this.#sent();
    this.#child.send({ type: "reply", id, ok: true, output: json });
  }

  #takeDone(done: Done): void {
    if (!done.ok) {
      this.#fail({ kind: done.kind, message: done.message });
      return;
    }
    if (done.result === undefined) {
      this.#fail({
        kind: "message_limit",
        message: `the tool's result is ${done.resultBytes ?? "?"} bytes, more than the ${this.#limits.maxMessageBytes}-byte limit`,
      });
      return;
    }
    const bytes = Buffer.byteLength(done.result);
    let result: unknown;
    try {
      result = JSON.parse(done.result);
    } catch {
      this.#fail({ kind: "crashed", message: "the sandbox process sent a malformed result and was stopped" });
      return;
    }
    if (bytes > this.#limits.maxMessageBytes) {
      this.#fail({
        kind: "message_limit",
        message: `the tool's result is ${bytes} bytes, more than the ${this.#limits.maxMessageBytes}-byte limit`,
      });
      return;
    }
    this.#done = { result, check: done.check };
  }

  /**
   * The first failure decides the outcome. A child still working on a failed run is killed at once; one that
   * finished its job itself (a code error, a failed check, or a result followed by a failed call) is clean.
   */
  #fail(failure: SandboxFailure): void {
    if (this.#finished) return;
    if (!this.#failure) this.#failure = failure;
    this.#stopClock();
    if (this.#child.alive && !this.#killed && !this.#childFinished) {
      this.#killed = true;
      this.#child.kill();
    }
  }

  /** Called when the child process is gone. */
  onExit(closedBySandbox: boolean): void {
    if (this.#finished) return;
    if (!this.#failure) {
      const stderr = this.#child.stderr;
      if (closedBySandbox) {
        this.#fail({ kind: "crashed", message: "the sandbox was closed while the tool was running" });
      } else if (/heap limit|out of memory/i.test(stderr)) {
        this.#fail({
          kind: "memory",
          message: `the tool used more than ${this.#limits.memoryMb} MB of memory and was stopped`,
        });
      } else {
        const { exitCode, signalCode } = this.#child.proc;
        const how = signalCode ? `signal ${signalCode}` : `exit code ${exitCode}`;
        const detail = stderrSummary(stderr);
        this.#fail({
          kind: "crashed",
          message: `the sandbox process ended unexpectedly (${how})${detail ? `: ${detail}` : ""}`,
        });
      }
    }
    this.#maybeFinish();
  }

  #maybeFinish(): void {
    if (this.#finished || this.#inflight > 0) return;
    if (!this.#failure && !this.#done) return;
    this.#finished = true;
    this.#stopClock();
    const clean = !this.#killed && this.#child.alive && this.#childFinished;
    this.#child.run = null;
    this.#release(this.#child, clean);
    if (this.#failure) this.#resolve({ ok: false, failure: this.#failure, calls: this.calls });
    else if (this.#done) {
      this.#resolve({ ok: true, result: this.#done.result, check: this.#done.check, calls: this.calls });
    }
  }
}

/** The telling line of a dead child's stderr (Node ends it with a stack and its version). */
function stderrSummary(stderr: string): string {
  const lines = stderr
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "" && !l.startsWith("Node.js v") && !l.startsWith("at ") && l !== "^" && l !== "}");
  return (lines.find((l) => /error/i.test(l)) ?? lines.at(-1) ?? "").slice(0, 500);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function parseObject(json: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(json);
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}

/** Validates a round from the (untrusted) child; null when it is not one. */
function parseRound(message: unknown): { calls: RoundCall[]; done: Done | null } | null {
  if (!isObject(message) || message["type"] !== "round" || !Array.isArray(message["calls"])) return null;
  const calls: RoundCall[] = [];
  for (const c of message["calls"] as unknown[]) {
    if (!isObject(c) || !Number.isSafeInteger(c["id"]) || typeof c["name"] !== "string") return null;
    const call: RoundCall = { id: c["id"] as number, name: c["name"] };
    if (typeof c["args"] === "string") call.args = c["args"];
    else if (typeof c["argsBytes"] === "number") call.argsBytes = c["argsBytes"];
    else return null;
    calls.push(call);
  }
  const d = message["done"];
  if (d === null || d === undefined) return { calls, done: null };
  if (!isObject(d)) return null;
  if (d["ok"] === true) {
    const check = d["check"];
    if (check !== "passed" && check !== "absent" && check !== "skipped") return null;
    if (typeof d["result"] === "string") return { calls, done: { ok: true, result: d["result"], check } };
    if (typeof d["resultBytes"] === "number")
      return { calls, done: { ok: true, resultBytes: d["resultBytes"], check } };
    return null;
  }
  if (d["ok"] === false && typeof d["kind"] === "string" && typeof d["message"] === "string") {
    if (!FAILURE_KINDS_FROM_CHILD.has(d["kind"])) return null;
    return { calls, done: { ok: false, kind: d["kind"] as SandboxFailureKind, message: d["message"] } };
  }
  return null;
}

// ---------------------------------------------------------------------------------------------------------
// The pool

/** A pool of sandbox children that runs distilled tool modules. Call `close()` when done (idle children never keep the process alive). */
export class Sandbox {
  readonly #limits: SandboxLimits;
  readonly #poolSize: number;
  readonly #runnerPath: string;
  readonly #idle: Child[] = [];
  readonly #all = new Set<Child>();
  #spawned = 0;
  #closed = false;

  constructor(options: SandboxOptions = {}) {
    this.#limits = resolveLimits(DEFAULT_LIMITS, options.limits);
    const poolSize = options.poolSize ?? 2;
    if (!Number.isInteger(poolSize) || poolSize < 0) {
      throw new DistillError("USAGE", `sandbox poolSize must be a whole number ≥ 0 (got ${poolSize})`);
    }
    this.#poolSize = poolSize;
    this.#runnerPath = options.runnerPath ?? defaultRunnerPath();
  }

  /** Runs one tool module; every failure of the tool is an outcome, never a throw. */
  async run(req: SandboxRunRequest): Promise<SandboxOutcome> {
    if (this.#closed)
      throw new DistillError("USAGE", "the sandbox is closed: make a new Sandbox to run more tools");
    const limits = resolveLimits(this.#limits, req.limits);
    let body: string;
    try {
      body = toFunctionBody(req.source);
    } catch (err) {
      if (err instanceof DistillError)
        return { ok: false, failure: { kind: "bad_module", message: err.message }, calls: [] };
      throw err;
    }
    let input: string;
    try {
      input = JSON.stringify(req.input ?? {});
    } catch (err) {
      throw new DistillError("USAGE", `the tool's input is not JSON-serialisable: ${errorMessage(err)}`, {
        cause: err,
      });
    }
    const child = await this.#acquire(limits.memoryMb);
    if (!child.alive || this.#closed) {
      this.#release(child, false);
      const detail = stderrSummary(child.stderr);
      const message = this.#closed
        ? "the sandbox was closed while the tool was starting"
        : `the sandbox process did not start${detail ? `: ${detail}` : ""}`;
      return { ok: false, failure: { kind: "crashed", message }, calls: [] };
    }
    return new Promise<SandboxOutcome>((resolve) => {
      new Run(child, req, limits, resolve, (c, clean) => this.#release(c, clean)).start(body, input);
    });
  }

  /** Kills every child; runs still going end with a `crashed` failure. */
  async close(): Promise<void> {
    this.#closed = true;
    const children = [...this.#all];
    this.#idle.length = 0;
    for (const child of children) {
      // Idle children are unref'd: without this the process could exit before their exits are seen.
      child.ref();
      child.kill();
    }
    await Promise.all(children.map((c) => c.exited));
  }

  /** Pool counters, for diagnostics and tests. */
  stats(): SandboxStats {
    const idle = this.#idle.length;
    return { spawned: this.#spawned, idle, busy: this.#all.size - idle };
  }

  async #acquire(memoryMb: number): Promise<Child> {
    const index = this.#idle.findLastIndex((c) => c.alive && c.memoryMb === memoryMb);
    const child = index >= 0 ? this.#idle.splice(index, 1)[0]! : this.#spawn(memoryMb);
    child.ref();
    if (await child.ready) return child;
    // A warm child that died meanwhile: one fresh try.
    if (index < 0 || this.#closed) return child;
    const fresh = this.#spawn(memoryMb);
    fresh.ref();
    await fresh.ready;
    return fresh;
  }

  #spawn(memoryMb: number): Child {
    const child = new Child(this.#runnerPath, memoryMb, (c) => this.#exited(c));
    this.#spawned++;
    this.#all.add(child);
    return child;
  }

  #exited(child: Child): void {
    this.#all.delete(child);
    const index = this.#idle.indexOf(child);
    if (index >= 0) this.#idle.splice(index, 1);
    child.run?.onExit(this.#closed);
  }

  #release(child: Child, clean: boolean): void {
    child.run = null;
    const keep =
      clean &&
      child.alive &&
      !this.#closed &&
      child.memoryMb === this.#limits.memoryMb &&
      this.#idle.length < this.#poolSize;
    if (keep) {
      child.unref();
      this.#idle.push(child);
    } else {
      child.kill();
    }
    this.#topUp();
  }

  /** Keeps `poolSize` warm children, replacing killed ones; spawned unref'd so they never hold the process. */
  #topUp(): void {
    while (!this.#closed && this.#idle.length < this.#poolSize) {
      const child = this.#spawn(this.#limits.memoryMb);
      child.unref();
      // At the front: runs take from the back, so a child that has already run a job (warm) goes first.
      this.#idle.unshift(child);
    }
  }
}

function defaultRunnerPath(): string {
  try {
    return fileURLToPath(new URL("./sandbox-runner.js", import.meta.url));
  } catch (err) {
    throw new DistillError(
      "USAGE",
      "cannot locate sandbox-runner.js next to this module: pass `runnerPath` in the Sandbox options",
      { cause: err },
    );
  }
}

function resolveLimits(base: SandboxLimits, override: Partial<SandboxLimits> | undefined): SandboxLimits {
  const limits = { ...base };
  for (const key of Object.keys(DEFAULT_LIMITS) as (keyof SandboxLimits)[]) {
    const value = override?.[key];
    if (value === undefined) continue;
    if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
      throw new DistillError(
        "USAGE",
        `sandbox limits: ${key} must be a positive number (got ${String(value)})`,
      );
    }
    limits[key] = key === "memoryMb" || key === "maxCalls" ? Math.ceil(value) : value;
  }
  return limits;
}
