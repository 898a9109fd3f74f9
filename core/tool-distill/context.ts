/**
 * The one context every operation of the library works in: the store, the settings, the base tools and what
 * runs them, the sandbox and the distiller. `ToolDistill` builds it once; the operation modules (verification,
 * versions, tool changes, distilling, running a distilled tool) take it, or the part of it they need.
 */

import type { Settings } from "../config/settings.ts";
import type { Distiller } from "../distill/distiller.ts";
import type { Sandbox } from "../sandbox/sandbox.ts";
import type { RegistryStore } from "../store/registry-store.ts";
import type { Executor, HealthProbe, Logger, ToolDef } from "../types.ts";

/** What the library's operations share. */
export interface DistillContext {
  readonly store: RegistryStore;
  readonly settings: Settings;
  readonly logger: Logger;
  /** Runs base tools live; null when only the store is available (the read-only CLI verbs). */
  readonly executor: Executor | null;
  /** Says whether an avoided tool recovered; used only by `health`. */
  readonly healthProbe: HealthProbe | null;
  /** The sandbox that runs distilled tools, made on first use. */
  readonly sandbox: Sandbox;
  /** The current base tools. */
  tools(): readonly ToolDef[];
  /** The current base tool of that name, if any. */
  baseTool(name: string): ToolDef | undefined;
  /** The distiller (ClaudeDistiller unless one was given), made on first use. */
  distiller(): Promise<Distiller>;
  /**
   * Told after this process committed a change that may change the set of exposed tools: re-reads the set
   * `activeTools()` serves (resolves once it has) and tells `onExposureChange` when the set changed.
   */
  exposureChanged(): Promise<void> | void;
}
