/**
 * The CLI's shared types: where it writes, what a command body receives, and how an option is written. A leaf
 * that imports no module, so the command table, the parser and the bodies can all depend on it without a cycle.
 */

/** Where the CLI writes and which folder it treats as current; tests pass their own. */
export interface CliIO {
  stdout(text: string): void;
  stderr(text: string): void;
  cwd: string;
}

/** What a command body receives: its output, the config it was pointed at, its checked options and arguments. */
export interface CommandContext<S extends OptionsSpec = OptionsSpec, P extends string = string> {
  io: CliIO;
  /** Absolute path given with --config, if any. */
  configPath: string | undefined;
  json: boolean;
  options: OptionValues<S>;
  args: Readonly<Record<P, string>>;
}

/** A boolean flag: `--live`. */
export interface FlagOption {
  type: "flag";
  short?: string;
  help: string;
  /** Another flag this one only qualifies (`--dry-run` with `--live`): alone it is a usage error. */
  requires?: string;
}

/** A whole number from 1 to `max`, such as `--limit N`; `what` names it in the error. */
export interface CountOption {
  type: "count";
  metavar: string;
  max: number;
  what: string;
  help: string;
}

/** One value of a fixed list, such as `--status S`. */
export interface ChoiceOption<V extends string = string> {
  type: "choice";
  metavar: string;
  values: readonly V[];
  help: string;
}

/** Any string, such as `--config <path>`. */
export interface TextOption {
  type: "text";
  metavar: string;
  help: string;
  /** A flag this option only qualifies (`--input` with `--live`): without it, a usage error. */
  requires?: string;
}

/** How one option is written, checked and explained. */
export type OptionSpec = FlagOption | CountOption | ChoiceOption | TextOption;

/** A command's options by flag name (without the dashes). */
export type OptionsSpec = Readonly<Record<string, OptionSpec>>;

type ValueOf<O> = O extends FlagOption
  ? boolean
  : O extends CountOption
    ? number
    : O extends ChoiceOption<infer V>
      ? V
      : O extends TextOption
        ? string
        : never;

type Flags<S extends OptionsSpec> = { [K in keyof S as S[K] extends FlagOption ? K : never]: ValueOf<S[K]> };
type Valued<S extends OptionsSpec> = {
  [K in keyof S as S[K] extends FlagOption ? never : K]?: ValueOf<S[K]>;
};

/**
 * The checked values of a spec's options: a flag is a boolean, a valued option is absent when not given (so the
 * values pass as they are to library calls whose options are optional).
 */
export type OptionValues<S extends OptionsSpec> = Readonly<Flags<S> & Valued<S>>;
