/**
 * Start-up of a read verb: `tooldistill list` in a small store (the bin shim as npm runs it, Node's compile cache
 * warm) against bare `node -e 0` on the same Node, interleaved in the same rounds so machine noise hits both.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ToolDistill } from "../core/tool-distill/tool-distill.ts";
import { distilHops, executor, TOOLS } from "./distilled-call.ts";
import { type Benchmark, figure, median, timedProcess } from "./types.ts";

const GOAL_RATIO = 3;
const ROUNDS = 20;
const BIN = fileURLToPath(new URL("../bin/tooldistill.js", import.meta.url));

/** A store with two verified tools and a few traces: small, as a project's first weeks leave it. */
async function smallStore(dir: string): Promise<void> {
  const td = new ToolDistill({
    store: join(dir, ".tooldistill"),
    executor,
    tools: TOOLS,
    fallbackDistiller: false,
    autoPromote: "all",
  });
  try {
    for (const name of ["hops_a", "hops_b"]) await distilHops(td, name);
  } finally {
    await td.close();
  }
}

export const cliStart: Benchmark = {
  name: "cli start-up",
  description: `\`tooldistill list\` in a small store vs bare \`node -e 0\` on the same Node (${ROUNDS} interleaved rounds, median)`,
  async run() {
    const dir = mkdtempSync(join(tmpdir(), "td-bench-cli-"));
    try {
      await smallStore(dir);
      const env = { ...process.env };
      const list = () => timedProcess([BIN, "list"], "", env, dir);
      const bare = () => timedProcess(["-e", "0"], "", env, dir);
      // The first run fills Node's compile cache, as the first command after an install does.
      list();
      const listTimes: number[] = [];
      const bareTimes: number[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        bareTimes.push(bare());
        listTimes.push(list());
      }
      const value = median(listTimes);
      const floor = median(bareTimes);
      return {
        columns: ["process", "ms (median)", "× node -e 0"],
        rows: [
          ["node -e 0", floor.toFixed(1), "1.00"],
          ["tooldistill list", value.toFixed(1), (value / floor).toFixed(2)],
        ],
        figures: [
          figure(
            "`tooldistill list` in a small store",
            { value, floor, unit: "ms", basis: "bare `node -e 0`" },
            GOAL_RATIO,
          ),
        ],
      };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
