/**
 * Wall time of the bundled hooks in plugin/dist/ run as Claude Code runs them: `node <hook>.js` with the event's
 * JSON on stdin and the plugin's environment, in a temp project (tooldistill.yaml + .mcp.json) with a warmed
 * store, against bare `node -e 0` on the same Node, interleaved in the same rounds so machine noise hits both.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Benchmark, figure, median, timedProcess as timed } from "./types.ts";

const GOAL_RATIO = 1.1;
const ROUNDS = 40;
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DIST = join(ROOT, "plugin", "dist");
const PAYLOADS = join(ROOT, "test", "fixtures", "claude-code-payloads");
const SESSION = "c4f46833-8f37-418c-ab03-42c0dfb3b30d";

type Payload = Record<string, unknown>;

function payload(name: string, patch: Payload = {}): Payload {
  return { ...(JSON.parse(readFileSync(join(PAYLOADS, `hook.${name}.json`), "utf8")) as Payload), ...patch };
}

interface Row {
  label: string;
  /** Counts toward the goal: the recording hooks, which run on every tool call. */
  recording: boolean;
  times: number[];
}

export const hooks: Benchmark = {
  name: "hooks",
  description: `bundled hooks (plugin/dist) as Claude Code runs them vs bare \`node -e 0\` on the same Node (${ROUNDS} interleaved rounds, median)`,
  async run() {
    const project = mkdtempSync(join(tmpdir(), "td-bench-hooks-"));
    const data = join(project, "plugin-data");
    mkdirSync(data);
    writeFileSync(
      join(project, ".mcp.json"),
      JSON.stringify({ mcpServers: { base: { type: "stdio", command: "node", args: ["base.js"] } } }),
    );
    writeFileSync(join(project, "tooldistill.yaml"), "mcp_config: .mcp.json\nfallback_distiller: false\n");
    // What Claude Code adds to a plugin hook's environment (claude-code-facts.md, "Environment").
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      CLAUDE_PROJECT_DIR: project,
      CLAUDE_CODE_SESSION_ID: SESSION,
      CLAUDE_PLUGIN_ROOT: join(ROOT, "plugin"),
      CLAUDE_PLUGIN_DATA: data,
    };
    const hook = (file: string, input: Payload) =>
      timed([join(DIST, `${file}.js`)], JSON.stringify({ ...input, cwd: project }), env, project);
    try {
      // Warm-up: creates and migrates the store, fills any cache the hooks keep, and warms the OS file cache.
      hook("session-start", payload("SessionStart.startup"));
      hook("user-prompt-submit", payload("UserPromptSubmit"));
      const rows: Row[] = [
        { label: "node -e 0", recording: false, times: [] },
        { label: "node -e \"require('node:sqlite')\"", recording: false, times: [] },
        { label: "SessionStart", recording: false, times: [] },
        { label: "UserPromptSubmit", recording: false, times: [] },
        { label: "PreToolUse (mcp base tool)", recording: true, times: [] },
        { label: "PostToolUse (mcp base tool)", recording: true, times: [] },
        { label: "PreToolUse (Bash)", recording: true, times: [] },
        { label: "PostToolUseFailure (Bash)", recording: true, times: [] },
      ];
      const runs: Array<(i: number) => number> = [
        () => timed(["-e", "0"], "", env, project),
        () => timed(["-e", "require('node:sqlite')"], "", env, project),
        () => hook("session-start", payload("SessionStart.startup")),
        (i) => hook("user-prompt-submit", payload("UserPromptSubmit", { prompt: `prompt ${i}` })),
        (i) => hook("pre-tool-use", payload("PreToolUse.mcp-project", { tool_use_id: `toolu_bench_${i}` })),
        (i) => hook("post-tool-use", payload("PostToolUse.mcp-project", { tool_use_id: `toolu_bench_${i}` })),
        (i) => hook("pre-tool-use", payload("PreToolUse.Bash", { tool_use_id: `toolu_bash_${i}` })),
        (i) =>
          hook(
            "post-tool-use-failure",
            payload("PostToolUseFailure.Bash", { tool_use_id: `toolu_bash_${i}` }),
          ),
      ];
      for (let i = 0; i < ROUNDS; i++) {
        for (const [k, run] of runs.entries()) rows[k]!.times.push(run(i));
      }
      const bare = median(rows[0]!.times);
      const ratios = rows.filter((r) => r.recording).map((r) => median(r.times) / bare);
      const worst = Math.max(...ratios);
      const slowest = Math.max(...rows.filter((r) => r.recording).map((r) => median(r.times)));
      return {
        columns: ["process", "ms (median)", "× node -e 0"],
        rows: rows.map((r) => [r.label, median(r.times).toFixed(1), (median(r.times) / bare).toFixed(2)]),
        goal: {
          text: `every recording hook (Pre/PostToolUse, PostToolUseFailure) ≤ ${GOAL_RATIO}× node -e 0 (worst ${worst.toFixed(2)}×)`,
          met: worst <= GOAL_RATIO,
        },
        figures: [
          figure(
            "recording hooks (slowest of Pre/PostToolUse, PostToolUseFailure)",
            { value: slowest, floor: bare, unit: "ms", basis: "bare `node -e 0`" },
            GOAL_RATIO,
          ),
        ],
        notes: [
          "each hook run records into a warmed store in a temp project (WAL, one short transaction per event)",
        ],
      };
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  },
};
