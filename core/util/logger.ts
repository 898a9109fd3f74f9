/**
 * The library's default logger. Library code never calls `console.*`: it writes through a Logger. By default
 * warnings and errors (start-up changes, fallback distiller failures, store problems) go to stderr, because a
 * dropped warning is a problem nobody hears about; pass `silentLogger` to drop them or your own to route them.
 */
import type { Logger } from "../types.ts";

/** Warnings and errors on stderr, one line each; info is dropped. */
export const stderrLogger: Logger = {
  info() {},
  warn(message) {
    process.stderr.write(`${message}\n`);
  },
  error(message) {
    process.stderr.write(`${message}\n`);
  },
};
