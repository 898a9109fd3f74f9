/**
 * Debian's Chromium for the browser tests, installed by the test set-up when it is missing: as root with
 * `apt-get install -y chromium` (after `apt-get update` when the package lists are empty), which works on a fresh
 * CI machine that reaches only npm and Debian. Not root and missing: a clear failure saying what to install.
 * puppeteer-core drives it and never downloads a browser.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";

/** Where Debian's package puts the browser. */
export const CHROMIUM = "/usr/bin/chromium";

/** Flags that work headless in a container as root, with nothing reaching out on its own. */
export const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** The browser's path, installing Debian's `chromium` first when it is missing and this process is root. */
export function ensureChromium(): string {
  if (existsSync(CHROMIUM)) return CHROMIUM;
  if (process.getuid?.() !== 0) {
    throw new Error(
      `${CHROMIUM} is missing and this test is not root, so it cannot install it: run \`sudo apt-get install -y chromium\` (Debian's package) and rerun`,
    );
  }
  const apt = (...args: string[]) =>
    execFileSync("apt-get", args, {
      stdio: "pipe",
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
  try {
    apt("install", "-y", "chromium");
  } catch {
    // A fresh machine has no package lists yet.
    apt("update");
    apt("install", "-y", "chromium");
  }
  if (!existsSync(CHROMIUM))
    throw new Error(`apt-get install -y chromium ran but ${CHROMIUM} is still missing`);
  return CHROMIUM;
}
