/**
 * The test server helper keeps its promise: a server never outlives the process that started it, even one killed
 * by SIGKILL, and the next start removes what such a run left on disk.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { dirname } from "node:path";
import { test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { startPgServer } from "./support/pg-server.ts";

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

test("a server dies with the process that started it, even by SIGKILL; the next start sweeps its folder", async (t) => {
  const child = spawn(process.execPath, [fileURLToPath(new URL("./fixtures/start-pg.ts", import.meta.url))], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  t.after(() => child.kill("SIGKILL"));
  // A child that dies before printing fails the test (its stderr is inherited) instead of waiting for ever.
  const [line] = (await Promise.race([
    once(child.stdout!, "data"),
    once(child, "exit").then(([code]) => {
      throw new Error(`the server's starter exited (${code}) before printing the server`);
    }),
  ])) as [Buffer];
  const started = JSON.parse(line.toString()) as { postmaster: number; dataDir: string };
  assert.ok(running(started.postmaster));
  child.kill("SIGKILL");
  const until = Date.now() + 15_000;
  while (running(started.postmaster) && Date.now() < until) await sleep(20);
  assert.equal(running(started.postmaster), false, "the postmaster outlived its process");
  assert.ok(existsSync(dirname(started.dataDir)), "a killed run cannot clean up after itself");

  const next = await startPgServer();
  await next.stop();
  assert.equal(existsSync(dirname(started.dataDir)), false, "the next start removed it");
});
