import type { SandboxOutcome } from "../core/sandbox/types.ts";

/** A tool module whose `run(input)` body is `run`; `extra` adds properties (e.g. a check) to the definition. */
export function toolSource(run: string, extra = ""): string {
  return `import { distilledTool, call } from "tooldistill";

export default distilledTool({
  name: "test_tool",
  description: "A tool under test.",
  inputSchema: { type: "object" },
  async run(input: any) {
${run}
  },${extra}
});
`;
}

/** One base call as the fake host saw it. */
export interface HostCall {
  tool: string;
  args: Record<string, unknown>;
}

/**
 * Fake base tools, in-process: `echo` returns its arguments, `fail` throws, `slow` answers after `args.ms`,
 * `big` returns a string of `args.bytes` characters, `bad_json` returns a BigInt. `log` records every call,
 * `maxInFlight` the most calls running at once.
 */
export function fakeHost() {
  const log: HostCall[] = [];
  let inFlight = 0;
  const host = {
    log,
    maxInFlight: 0,
    async call(tool: string, args: Record<string, unknown>): Promise<unknown> {
      log.push({ tool, args });
      inFlight++;
      host.maxInFlight = Math.max(host.maxInFlight, inFlight);
      try {
        await new Promise((resolve) => setTimeout(resolve, tool === "slow" ? Number(args["ms"] ?? 0) : 1));
        switch (tool) {
          case "fail":
            throw new Error(`${String(args["why"] ?? "boom")}`);
          case "big":
            return "x".repeat(Number(args["bytes"]));
          case "bad_json":
            return { n: 1n };
          case "undefined":
            return undefined;
          default:
            return { tool, args };
        }
      } finally {
        inFlight--;
      }
    },
  };
  return host;
}

/** The failure of an outcome, failing the test when the run succeeded. */
export function failureOf(outcome: SandboxOutcome) {
  if (outcome.ok) throw new Error(`expected a failure, got result ${JSON.stringify(outcome.result)}`);
  return outcome.failure;
}

/** The result of an outcome, failing the test (with the failure's message) when the run failed. */
export function resultOf(outcome: SandboxOutcome): unknown {
  if (!outcome.ok)
    throw new Error(`expected a result, got ${outcome.failure.kind}: ${outcome.failure.message}`);
  return outcome.result;
}
