/**
 * The `tooldistill` command line. Every verb is a thin call of the library: the store-only verbs (list, show,
 * traces, deprecate, doctor) open the store; the others build a ToolDistill from tooldistill.yaml. Output goes
 * through an injected `io` so tests run `main` in-process; errors become exit codes here and nowhere else.
 */
import { DistillError, errorMessage } from "../core/read.ts";
import { EXIT } from "./commands.ts";
import { runCommand } from "./dispatch.ts";
import { parseCommandLine } from "./options.ts";
import type { CliIO } from "./types.ts";

/** The real process's streams and folder. */
export const processIO: CliIO = {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
  cwd: process.cwd(),
};

/** Runs one command line (without `node` and the script); resolves to the exit code. */
export async function main(argv: string[], io: CliIO = processIO): Promise<number> {
  // A USAGE error before the command runs is a malformed command line; the same code from a running command
  // (init refusing to overwrite a config, a precondition of the library) is a refused command like any other.
  let running = false;
  try {
    const line = parseCommandLine(argv, io.cwd);
    if (line.kind === "help") {
      io.stdout(`${line.text}\n`);
      return EXIT.ok;
    }
    running = true;
    const { configPath, json, options, args } = line;
    return await runCommand(line.name, { io, configPath, json, options, args });
  } catch (err) {
    // The one place errors become exit codes.
    if (err instanceof DistillError) {
      io.stderr(`tooldistill: ${err.message}\n`);
      return err.code === "USAGE" && !running ? EXIT.usage : EXIT.error;
    }
    const detail = err instanceof Error ? (err.stack ?? err.message) : errorMessage(err);
    io.stderr(`tooldistill: internal error — please report it\n${detail}\n`);
    return EXIT.error;
  }
}
