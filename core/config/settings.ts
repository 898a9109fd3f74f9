/**
 * The tunable settings, stated once. Each row gives a setting's camelCase name (as the library and
 * `new ToolDistill({...})` read it), its key in tooldistill.yaml, its default, the JSON Schema its value must match
 * (whose `description` is the message a wrong value gets), and the comment above it in the sample config. The
 * defaults, the config file's schema, its normalisation, the options' validation, the sample `tooldistill init`
 * writes and the settings the hooks cache are all derived from this table.
 */
import { Ajv, type ErrorObject } from "ajv";
import type { AutoPromote } from "../base-tools/tool-effects.ts";
import { DistillError } from "../errors.ts";
import { DEFAULT_MAX_OUTPUT_BYTES } from "../trace/recordable.ts";

/**
 * When tool-caused runtime failures demote a distilled tool: `failures` of them in its last `window` runs (runs
 * that failed for a base tool's outage or the host's load do not count as runs), or any one while it has fewer
 * than `probation` successful runs.
 */
export interface DemotionRule {
  failures: number;
  window: number;
  probation: number;
}

/**
 * How the host retries a base call made by a distilled tool that failed for infrastructure, when the base tool is
 * read-only or declares `idempotentHint: true`: at most `attempts` tries in all, waiting `backoff` ms before the
 * second and twice as long before each next one, never more than `cap` ms.
 */
export interface RetryRule {
  attempts: number;
  backoff: number;
  cap: number;
}

/** One setting's row. */
interface SettingSpec<T> {
  /** The key in tooldistill.yaml. */
  key: string;
  default: T;
  /** The JSON Schema of its value; `description` is what a wrong value is told. */
  schema: Record<string, unknown> & { description: string };
  /** The comment above it in the sample config. */
  sample: string;
  /** True when the plugin's hooks read it (they cache only those). */
  hooks?: true;
}

/** Keeps each row's value type (`string`, `boolean`, `number`) rather than its literal. */
function setting<T>(spec: SettingSpec<T>): SettingSpec<T> {
  return spec;
}

const BOOLEAN = { type: "boolean", description: "must be a boolean" };

/** Every setting, in the order the sample config lists them. */
export const SETTINGS = {
  distillerModel: setting({
    key: "distiller_model",
    default: "claude-sonnet-5-5",
    schema: { type: "string", minLength: 1, description: "must be a model name (a non-empty string)" },
    sample: "The model the built-in distiller uses.",
  }),
  fallbackDistiller: setting({
    key: "fallback_distiller",
    default: true,
    schema: BOOLEAN,
    sample:
      "true costs one extra Claude call on every worth-distilling run where the agent did not propose a tool.",
    hooks: true,
  }),
  autoPromote: setting<AutoPromote>({
    key: "auto_promote",
    default: false,
    schema: {
      enum: [false, true, "all"],
      description: 'must be false, true (read-only tools only) or "all"',
    },
    sample:
      "false: verified tools wait for `tooldistill promote`; true: tools that only call read-only base tools become active at once (the others wait for a person); all: every verified tool becomes active at once.",
  }),
  demotion: setting<DemotionRule>({
    key: "demotion",
    default: { failures: 2, window: 5, probation: 3 },
    schema: {
      type: "object",
      properties: {
        failures: { type: "integer", minimum: 1, description: "must be a whole number ≥ 1" },
        window: { type: "integer", minimum: 1, description: "must be a whole number ≥ 1" },
        probation: { type: "integer", minimum: 0, description: "must be a whole number ≥ 0" },
      },
      additionalProperties: false,
      description:
        "must be { failures, window, probation } with whole numbers (failures and window ≥ 1, probation ≥ 0), e.g. { failures: 2, window: 5, probation: 3 }",
    },
    sample:
      "A distilled tool is demoted after `failures` failures of its own (its code, or arguments a base tool refused) in its last `window` runs, or after any such failure while it has fewer than `probation` successful runs. Outages of base tools and an overloaded host never count.",
  }),
  baseCallRetries: setting<RetryRule>({
    key: "base_call_retries",
    default: { attempts: 3, backoff: 200, cap: 2000 },
    schema: {
      type: "object",
      properties: {
        attempts: {
          type: "integer",
          minimum: 1,
          maximum: 10,
          description: "must be a whole number from 1 to 10",
        },
        backoff: {
          type: "integer",
          minimum: 0,
          maximum: 60_000,
          description: "must be a whole number of ms from 0 to 60000",
        },
        cap: {
          type: "integer",
          minimum: 0,
          maximum: 60_000,
          description: "must be a whole number of ms from 0 to 60000",
        },
      },
      additionalProperties: false,
      description:
        "must be { attempts, backoff, cap } with whole numbers (attempts 1 to 10, backoff and cap 0 to 60000 ms), e.g. { attempts: 3, backoff: 200, cap: 2000 }",
    },
    sample:
      "A base call a distilled tool makes that fails for infrastructure (5xx, 429, 408, a lost connection) is tried again, up to `attempts` tries in all, waiting `backoff` ms and doubling up to `cap` ms, when the base tool is read-only or declares idempotentHint: true. Writes that do not declare it are never retried. attempts: 1 turns retries off.",
  }),
  minCallsToDistill: setting({
    key: "min_calls_to_distill",
    default: 8,
    schema: { type: "integer", minimum: 1, description: "must be an integer ≥ 1" },
    sample:
      "Runs with fewer top-level base tool calls are not distilled (waived after a distilled tool failed).",
    hooks: true,
  }),
  minCallReduction: setting({
    key: "min_call_reduction",
    default: 0.3,
    schema: {
      type: "number",
      exclusiveMinimum: 0,
      exclusiveMaximum: 1,
      description: "must be a number between 0 and 1, exclusive",
    },
    sample:
      "A distilled tool must use at least this share fewer base tool calls than its baseline (0.3 = 30%).",
  }),
  maxExposedTools: setting({
    key: "max_exposed_tools",
    default: 20,
    schema: { type: "integer", minimum: 0, description: "must be an integer ≥ 0" },
    sample: "Caps how many distilled tool definitions are shown to the model, and so their context cost.",
  }),
  allowLiveVerification: setting({
    key: "allow_live_verification",
    default: false,
    schema: BOOLEAN,
    sample: "Live verification calls the real base tools, with their real side effects.",
  }),
  checkSchemasOnStart: setting({
    key: "check_schemas_on_start",
    default: true,
    schema: BOOLEAN,
    sample:
      "A cheap schema comparison at every start, so a changed base tool is caught before the first run.",
  }),
  maxOutputBytes: setting({
    key: "max_output_bytes",
    default: DEFAULT_MAX_OUTPUT_BYTES,
    schema: {
      type: "integer",
      minimum: 1024,
      maximum: 1073741824,
      description: "must be a whole number of bytes from 1024 to 1073741824 (1 GB)",
    },
    sample:
      "A recorded tool output larger than this (bytes) is clipped to its beginning, and the call says so.",
    hooks: true,
  }),
  storePoolSize: setting({
    key: "store_pool_size",
    default: 10,
    schema: { type: "integer", minimum: 1, maximum: 1000, description: "must be an integer from 1 to 1000" },
    sample:
      "PostgreSQL store only: connections each process keeps to the database (workers × this must stay under max_connections).",
  }),
  storeConnectTimeoutMs: setting({
    key: "store_connect_timeout_ms",
    default: 10_000,
    schema: {
      type: "integer",
      minimum: 100,
      maximum: 600_000,
      description: "must be a whole number of milliseconds from 100 to 600000",
    },
    sample: "PostgreSQL store only: how long connecting may take before the database counts as unreachable.",
  }),
};

type SettingName = keyof typeof SETTINGS;

/** The tunable settings, camelCase, as the rest of the library reads them. */
export type Settings = { [K in keyof typeof SETTINGS]: (typeof SETTINGS)[K]["default"] };

/** The settings the plugin's hooks read (and cache). */
export type HookSettings = Pick<Settings, "fallbackDistiller" | "minCallsToDistill" | "maxOutputBytes">;

const NAMES = Object.keys(SETTINGS) as SettingName[];

/** The value of every setting when the file or the options do not set it. */
export const DEFAULT_SETTINGS: Readonly<Settings> = Object.freeze(
  Object.fromEntries(NAMES.map((name) => [name, SETTINGS[name].default])) as Settings,
);

/** The names of the settings the hooks read, from the table. */
export const HOOK_SETTING_NAMES: readonly (keyof HookSettings)[] = NAMES.filter(
  (name) => SETTINGS[name].hooks === true,
) as (keyof HookSettings)[];

/** The hooks' part of `settings`, for their cache. */
export function hookSettings(settings: Settings): HookSettings {
  return Object.fromEntries(HOOK_SETTING_NAMES.map((name) => [name, settings[name]])) as HookSettings;
}

/** The settings' part of the config file's JSON Schema: `{ <file key>: <schema> }`. */
export function settingsSchemaProperties(): Record<string, Record<string, unknown>> {
  return Object.fromEntries(NAMES.map((name) => [SETTINGS[name].key, SETTINGS[name].schema]));
}

/** The settings of validated config data (file keys), every missing one at its default. */
export function settingsFromFile(data: Record<string, unknown>): Settings {
  const out: Record<string, unknown> = {};
  for (const name of NAMES) out[name] = withDefault(SETTINGS[name].default, data[SETTINGS[name].key]);
  return out as Settings;
}

/** A setting's value, or its default when unset; an object setting keeps the default of each key it leaves out. */
function withDefault(fallback: unknown, value: unknown): unknown {
  if (value === undefined) return fallback;
  const isObject = (x: unknown) => typeof x === "object" && x !== null && !Array.isArray(x);
  return isObject(fallback) && isObject(value) ? { ...(fallback as object), ...(value as object) } : value;
}

/** A default as YAML: a scalar as it is, an object in flow style (`{ failures: 2, window: 5 }`). */
function yamlValue(value: unknown): string {
  if (typeof value !== "object" || value === null) return String(value);
  return `{ ${Object.entries(value)
    .map(([k, v]) => `${k}: ${String(v)}`)
    .join(", ")} }`;
}

/** The settings' lines of the sample config, each with its comment, at its default. */
export function sampleSettings(): string {
  return NAMES.map((name) => {
    const { key, sample } = SETTINGS[name];
    return `# ${sample}\n${key}: ${yamlValue(SETTINGS[name].default)}`;
  }).join("\n");
}

let optionsValidator: ReturnType<Ajv["compile"]> | null = null;

/**
 * The settings of `new ToolDistill({...})` options (camelCase), checked against the same schemas as the file's
 * keys. Throws CONFIG_INVALID naming every wrong option.
 */
export function settingsFromOptions(options: Partial<Record<SettingName, unknown>>): Settings {
  const schema = {
    type: "object",
    properties: Object.fromEntries(NAMES.map((name) => [name, SETTINGS[name].schema])),
  };
  optionsValidator ??= new Ajv({ allErrors: true, verbose: true, strict: false }).compile(schema);
  const given: Record<string, unknown> = {};
  for (const name of NAMES) if (options[name] !== undefined) given[name] = options[name];
  if (!optionsValidator(given)) {
    const problems = [...new Set((optionsValidator.errors ?? []).map(describe))];
    throw new DistillError("CONFIG_INVALID", `ToolDistill options: ${problems.join("; ")}`);
  }
  const out: Record<string, unknown> = {};
  for (const name of NAMES) out[name] = withDefault(SETTINGS[name].default, given[name]);
  return out as Settings;
}

function describe(error: ErrorObject): string {
  const name = error.instancePath.slice(1);
  const description = (error.parentSchema as { description?: string } | undefined)?.description;
  return `${name} ${description ?? error.message ?? "is invalid"} (got ${JSON.stringify(error.data)})`;
}
