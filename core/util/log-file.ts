/**
 * An append-only log file that never grows without bound: past `maxBytes` it is moved to `<file>.1` (replacing
 * the previous one) and a new file is started, so the hooks' log holds at most about twice `maxBytes`.
 */
import { appendFileSync, mkdirSync, renameSync, statSync } from "node:fs";
import { dirname } from "node:path";

/** Default size at which a log file is rotated. */
export const DEFAULT_LOG_BYTES = 1024 * 1024;

/** Appends one line (a newline is added), rotating first when the file would pass `maxBytes`. Never throws. */
export function appendLog(file: string, line: string, maxBytes = DEFAULT_LOG_BYTES): boolean {
  const text = `${line.endsWith("\n") ? line.slice(0, -1) : line}\n`;
  try {
    let size = 0;
    try {
      size = statSync(file).size;
    } catch {
      mkdirSync(dirname(file), { recursive: true });
    }
    if (size > 0 && size + Buffer.byteLength(text) > maxBytes) {
      try {
        renameSync(file, `${file}.1`);
      } catch {
        // Another process rotated it first: append to the new file.
      }
    }
    // A single line longer than the cap is cut, so even one huge error message cannot grow the log past it.
    appendFileSync(
      file,
      Buffer.byteLength(text) > maxBytes ? `${text.slice(0, maxBytes - 20)}… [cut]\n` : text,
    );
    return true;
  } catch {
    return false;
  }
}
