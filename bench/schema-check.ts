/**
 * The start-up comparison of `check_schemas_on_start`: 200 base tools, 100 active versions with 5 dependencies
 * each; the time `new ToolDistill(...)` spends comparing fingerprints, against opening the store alone.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fingerprint } from "../core/base-tools/fingerprint.ts";
import { SqliteRegistryStore } from "../core/store/sqlite/sqlite-registry-store.ts";
import { ToolDistill } from "../core/tool-distill/tool-distill.ts";
import type { ToolDef } from "../core/types.ts";
import { type Benchmark, figure, median } from "./types.ts";

const TOOL_COUNT = 200;
const VERSION_COUNT = 100;
const GOAL_MS = 5;

export const schemaCheck: Benchmark = {
  name: "check_schemas_on_start",
  description: `new ToolDistill(...) with ${TOOL_COUNT} tools and ${VERSION_COUNT} active versions, with and without the comparison`,
  async run() {
    const dir = mkdtempSync(join(tmpdir(), "td-bench-schema-"));
    const storeDir = join(dir, ".tooldistill");
    const tools: ToolDef[] = Array.from({ length: TOOL_COUNT }, (_, i) => ({
      name: `tool_${i}`,
      description: `Tool number ${i}, which does something useful.`,
      input_schema: {
        type: "object",
        properties: {
          id: { type: "string" },
          limit: { type: "number", default: 10 },
          filter: { type: "object" },
        },
        required: ["id"],
      },
    }));
    try {
      const store = SqliteRegistryStore.open(storeDir);
      for (let v = 0; v < VERSION_COUNT; v++) {
        const rec = await store.createVersion({
          name: `distilled_${v}`,
          code: `// v${v}`,
          description: "d",
          inputSchema: { type: "object" },
          testInputs: [],
          sourceTrace: null,
          reason: "bench",
        });
        await store.setStatus({
          name: rec.name,
          version: 1,
          expect: "draft",
          to: "verified",
          problems: [],
          reason: "bench",
        });
        await store.setStatus({
          name: rec.name,
          version: 1,
          expect: "verified",
          to: "active",
          problems: [],
          reason: "bench",
        });
        // An active version always has its verdict (the open check reports one without it).
        await store.setVerification(
          rec.name,
          1,
          {
            name: rec.name,
            version: 1,
            status: "active",
            checks: {
              static: { ok: true, problems: [] },
              replay: { ok: true, problems: [] },
              efficiency: { ok: true, problems: [] },
            },
            calls: 1,
            baseline: 3,
            limit: 2.1,
            liveCalls: [],
            evidence: { callSites: null, literals: null, runs: null, writes: [], promotion: null },
          },
          null,
        );
        const deps = Array.from({ length: 5 }, (_, k) => tools[(v * 5 + k) % TOOL_COUNT]!);
        await store.setDependencies(
          rec.name,
          1,
          deps.map((t) => ({ baseTool: t.name, fingerprint: fingerprint(t), avoided: false })),
        );
        // What a verification leaves: the definitions the version was verified against.
        await store.addVerifiedDefinitions(
          rec.name,
          1,
          deps.map((t) => ({ baseTool: t.name, fingerprint: fingerprint(t)!, definition: t })),
        );
      }
      await store.close();
      // Opened and ready: the review runs once the store is open, and ready() waits for it.
      const open = async (check: boolean) => {
        const t0 = performance.now();
        const td = new ToolDistill({
          store: storeDir,
          tools,
          checkSchemasOnStart: check,
          fallbackDistiller: false,
        });
        await td.ready();
        const elapsed = performance.now() - t0;
        if (check && td.startupReport?.changes.length) throw new Error("bench store unexpectedly changed");
        await td.close();
        return elapsed;
      };
      for (let i = 0; i < 5; i++) {
        await open(true);
        await open(false);
      }
      const withCheck: number[] = [];
      const without: number[] = [];
      for (let i = 0; i < 21; i++) {
        withCheck.push(await open(true));
        without.push(await open(false));
      }
      const a = median(withCheck);
      const b = median(without);
      return {
        columns: ["measure", "ms"],
        rows: [
          ["new ToolDistill, check_schemas_on_start: false", b.toFixed(2)],
          ["new ToolDistill, check_schemas_on_start: true", a.toFixed(2)],
          ["comparison alone", (a - b).toFixed(2)],
        ],
        goal: { text: `comparison ≤ ${GOAL_MS} ms`, met: a - b <= GOAL_MS },
        figures: [
          figure(
            "start-up review (200 tools, 100 versions)",
            { value: a, floor: b, unit: "ms", basis: "the same open with check_schemas_on_start: false" },
            1.5,
          ),
        ],
      };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
