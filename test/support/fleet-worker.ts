/**
 * One worker of a fleet on a shared registry, run as its own process by test/fleet.test.ts (`process.execPath
 * fleet-worker.ts <json job>`). It uses only the public API (core/index.ts) and talks in JSON lines: it prints
 * `{"event":"ready"}` once its ToolDistill is open and, for the roles that race, waits for a line `go` on stdin
 * before acting, so every process of the fleet acts at once.
 *
 * Roles:
 * - `watch`: prints `{"event":"seen","at":<epoch ms>}` when `activeTools()` first offers `name`.
 * - `tool-updated`: opens with flights_search changed (channel required: a breaking change the distilled tool
 *   still satisfies) and, on `go`, calls `onToolUpdated("flights_search")`; prints the report.
 * - `propose`: records `count` source runs and, on `go`, proposes `count` variants of the travel tool at once
 *   through `propose_distilled_tool`; prints each verdict's first line.
 */
import { createInterface } from "node:readline";
import { PROPOSE_TOOL_NAME, Sandbox, silentLogger, type ToolDef, ToolDistill } from "../../core/index.ts";
import { bookingRun, input, TOOL, travelWorld } from "../fakes/travel-world.ts";

export interface FleetJob {
  role: "watch" | "tool-updated" | "propose";
  url: string;
  /** watch: the tool to wait for. */
  name?: string;
  /** propose: this worker's tag (the variants' comments carry it) and how many proposals it makes. */
  tag?: string;
  count?: number;
}

/** flights_search with `channel` required: a breaking change (a call without it was valid before). */
export function channelRequired(tools: readonly ToolDef[]): ToolDef[] {
  return tools.map((tool) =>
    tool.name === "flights_search"
      ? { ...tool, input_schema: { ...tool.input_schema, required: ["from", "to", "date", "channel"] } }
      : tool,
  );
}

function say(message: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}

const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
async function go(): Promise<void> {
  for (;;) {
    const line = await lines.next();
    if (line.done) throw new Error("stdin closed before go");
    if (line.value.trim() === "go") return;
  }
}

const job = JSON.parse(process.argv[2] ?? "{}") as FleetJob;
const world = travelWorld();
const sandbox = new Sandbox({ poolSize: 1 });
let seen: () => void = () => {};
const td = await ToolDistill.open({
  store: job.url,
  executor: world.executor,
  tools: job.role === "tool-updated" ? channelRequired(world.tools) : world.tools,
  sandbox,
  logger: silentLogger,
  minCallsToDistill: 3,
  fallbackDistiller: false,
  checkSchemasOnStart: false,
  storePoolSize: 2,
  onExposureChange: () => seen(),
});
try {
  if (job.role === "watch") {
    const offered = () => td.activeTools().some((t) => t.name === job.name);
    const arrived = new Promise<void>((resolve) => {
      seen = () => {
        if (offered()) resolve();
      };
    });
    say({ event: "ready", offered: offered() });
    await arrived;
    say({ event: "seen", at: Date.now() });
  } else if (job.role === "tool-updated") {
    say({ event: "ready" });
    await go();
    const report = await td.onToolUpdated("flights_search");
    say({ event: "report", changes: report.changes, messages: report.messages });
  } else {
    const count = job.count ?? 1;
    const sources = [];
    for (let i = 0; i < count; i++) sources.push(await bookingRun(td));
    await Promise.all(sources.map((s) => s.flush()));
    say({ event: "ready" });
    await go();
    const verdicts = await Promise.all(
      sources.map((source, i) =>
        source.execute(PROPOSE_TOOL_NAME, {
          code: `// variant ${job.tag}-${i}\n${TOOL}`,
          test_inputs: [input()],
        }),
      ),
    );
    say({ event: "verdicts", lines: verdicts.map((v) => v.content.split("\n")[0]) });
    await Promise.all(sources.map((s) => s.finish()));
  }
} finally {
  await td.close();
  await sandbox.close();
  process.exit(0);
}
