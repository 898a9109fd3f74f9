/**
 * A fresh engine context for one run: its runtime (with the host's interrupt handler), a context without the
 * intrinsics a tool must not have, and the prelude evaluated in it with the host's functions. Host work, done
 * ahead of the run (sandbox-worker.ts makes the next one while it waits for a job).
 */
import {
  DefaultIntrinsics,
  type QuickJSContext,
  type QuickJSHandle,
  type QuickJSRuntime,
} from "quickjs-emscripten-core";
import { errorMessage } from "../errors.ts";
import type { EngineInstance } from "./quickjs-engine.ts";
import type { AdmittedCall } from "./sandbox-calls.ts";
import { PRELUDE } from "./sandbox-guest.ts";
import type { SitePositions } from "./sandbox-sites.ts";
import type { SandboxFailure } from "./types.ts";

const INTRINSICS = { ...DefaultIntrinsics, Proxy: false, TypedArrays: false } as const;

/** What a run needs from the host: the allowlist, the call sites (verification) and how a call is performed. */
export interface RunSetup {
  allow: readonly string[];
  /** The tool's call sites and where each `call(` is in the evaluated code: given, every call must come from one. */
  sites?: SitePositions;
  /** Performs an admitted call on the host (over the worker's channel): its result's JSON, or the failure. */
  perform: (call: AdmittedCall) => Promise<{ json: string } | SandboxFailure>;
  /** Where each slice's watchdog deadline is written for the host to read (sandbox-clock.ts). */
  watch?: Int32Array;
}

/** The prelude's functions, by handle. */
export interface Api {
  define: QuickJSHandle;
  kind: QuickJSHandle;
  run: QuickJSHandle;
  check: QuickJSHandle;
  describe: QuickJSHandle;
  parse: QuickJSHandle;
}

/** The host's side of a context: what the prelude's `call` and `notApplicable` reach, and the interrupt. */
export interface HostFunctions {
  call: (name?: QuickJSHandle, args?: QuickJSHandle, stack?: QuickJSHandle) => QuickJSHandle;
  notApplicable: (reason?: QuickJSHandle) => undefined;
  interrupt: () => boolean;
}

/** Opens a context on `instance` with the prelude; the failure (the host's) when it cannot. */
export function openContext(
  instance: EngineInstance,
  inCheck: boolean,
  host: HostFunctions,
): { rt: QuickJSRuntime; ctx: QuickJSContext; api: Api } | SandboxFailure {
  try {
    const rt = instance.quickjs.newRuntime();
    rt.setInterruptHandler(host.interrupt);
    const ctx = rt.newContext({ intrinsics: INTRINSICS });
    const prelude = ctx.evalCode(PRELUDE, "tooldistill-prelude.js", { type: "global", strict: true });
    const hostCall = ctx.newFunction("call", host.call);
    const hostNotApplicable = ctx.newFunction("notApplicable", host.notApplicable);
    const flag = inCheck ? ctx.true : ctx.false;
    const api = prelude.error
      ? prelude
      : ctx.callFunction(prelude.value, ctx.undefined, hostCall, flag, hostNotApplicable);
    if (api.error) return { kind: "engine", cause: "host", message: "the sandbox prelude failed to start" };
    const get = (name: keyof Api) => ctx.getProp(api.value, name);
    return {
      rt,
      ctx,
      api: {
        define: get("define"),
        kind: get("kind"),
        run: get("run"),
        check: get("check"),
        describe: get("describe"),
        parse: get("parse"),
      },
    };
  } catch (err) {
    return {
      kind: "engine",
      cause: "host",
      message: `the sandbox engine could not start: ${errorMessage(err)}`,
    };
  }
}
