import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  clip
} from "./chunk-RYYHHNJW.js";
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  Anthropic,
  AnthropicError,
  AuthenticationError,
  RateLimitError
} from "./chunk-LPVZYSRE.js";
import {
  NO_EVIDENCE,
  silentLogger
} from "./chunk-J2PGGSMV.js";
import {
  isPlainObject
} from "./chunk-XLRDCVB2.js";
import {
  DistillError,
  errorMessage
} from "./chunk-WEYMVVQ3.js";

// core/prompts.ts
var PROPOSE_TOOL_NAME = "propose_distilled_tool";
var TOOL_FORMAT_GUIDE = `A distilled tool is one TypeScript module:

import { distilledTool, call, notApplicable } from "tooldistill";

export default distilledTool({
  name: "create_invoice_from_email",            // ^[a-z][a-z0-9_]{2,35}$, no "__", not a base tool's name
  description: "Create a draft invoice for a customer from their most recent order email.",
  inputSchema: {                                // a JSON Schema literal with type "object"
    type: "object",
    properties: { customer: { type: "string" }, since: { type: "string", default: "1d" } },
    required: ["customer"],
  },
  async run({ customer, since = "1d" }) {
    const [msg] = await call("gmail_search", { query: \`from:\${customer} order\`, since });
    if (!msg) return notApplicable(\`no order email from \${customer}\`);
    const order = await call("gmail_get_message", { id: msg.id });
    const cust = await call("billing_find_customer", { name: customer });
    return call("billing_create_invoice", { customer_id: cust.id, lines: order.lines });
  },
  check: (result) => result.status === "draft",  // optional: must hold for the replayed result
});

Rules (checked before anything runs):
- Every base tool call is \`await call("<literal base tool name>", { ...arguments })\`, with the arguments the tool's input schema asks for.
- Only \`import { distilledTool, call, notApplicable } from "tooldistill"\`; nothing else at top level.
- \`return notApplicable("why")\` ends the tool on purpose when the input is not a case it covers (no matching
  record, nothing to do): the agent is told to go on with the base tools and the tool is not marked broken. Use it
  instead of letting the code fail on a missing value. Never use it for the inputs of this run: they must succeed.
- Not allowed: try/catch/finally, .catch(...), .then(a, b) (a failed base call must fail the tool so the agent can fall back),
  while, do\u2026while, for(;;) and for\u2026in (use for\u2026of), with, class, generators, this, eval, Function, labels, debugger,
  enum, namespace, decorators, names starting with __, globalThis, process, require, module, Buffer, fetch, constructor,
  prototype, Reflect, Proxy, WebAssembly and timers.
- No clock and no randomness: Date.now(), new Date() and Math.random() do not exist (Date.parse and new Date(value) do);
  take the time as an input or from a base tool.
- The code runs in a sandbox with no file system, network or environment: only call(...) reaches the outside.
- Status, baseline and dependencies are not part of the file: the library measures them.

What happens to the tool later (so write it to hold):
- A base tool's outage (5xx, timeout, lost connection) is not held against the tool. Arguments a base tool refuses
  (4xx, validation) and errors in the code are: a few of them take the tool out of use. Build every argument from the
  input and earlier results the way this run did, and use notApplicable for inputs the path does not fit.
- A tool that calls a base tool that may change something (one not declared read-only) waits for a person to read
  and promote it: keep it to the calls the task needs.

A proposal is { "code": "<the whole module>", "test_inputs": [ { ...input of this run } ] }. The tool is replayed with each
test input against the responses recorded in this run, so use the inputs of this run. It must use fewer base tool calls
than this run did.`;
function nudgeText(run) {
  const head = run.replaceName ? `The distilled tool '${run.replaceName}' failed in this run and was disabled; you completed the task with the base tools. Propose a replacement under the same name '${run.replaceName}' that follows the path that worked this time.` : `This task took ${run.baseCalls} base tool calls. If the path you found would serve the same kind of task again, turn it into a distilled tool so the next run needs one call.`;
  return `${head}

Call ${PROPOSE_TOOL_NAME} with the code of the tool and test inputs. You get a verdict back: if it is rejected, fix every problem it lists and call ${PROPOSE_TOOL_NAME} again with the whole corrected code. If the task is not worth a tool, answer briefly without calling it.

${TOOL_FORMAT_GUIDE}`;
}

// core/distiller.ts
var PROPOSE_INPUT_SCHEMA = {
  type: "object",
  properties: {
    code: {
      type: "string",
      description: 'The whole TypeScript module of the distilled tool: import { distilledTool, call, notApplicable } from "tooldistill" and one export default distilledTool({...}).'
    },
    test_inputs: {
      type: "array",
      items: {
        type: "object",
        properties: {
          trace: {
            type: "string",
            description: "The id of another successful recorded run of the same task."
          },
          input: { type: "object", description: "The tool's input for that run." }
        }
      },
      description: 'Inputs to run the tool with during replay, taken from the source run (the replay answers each base call with the response recorded in that run). An entry { "trace": "<id>", "input": {...} } is replayed against another successful recorded run of the same task instead; any entry with a "trace" key is read that way.'
    }
  },
  required: ["code", "test_inputs"]
};
var OUTPUT_LIMIT = 800;
var ARGS_LIMIT = 4e3;
function proposalPrompt(request) {
  const { trace, calls, tools, reason, note, replacing } = request;
  const baseline = calls.filter(
    (c) => c.kind === "base" && c.parentId === null && c.status !== "started"
  ).length;
  const sections = [];
  sections.push(
    `You distil an agent's run into a distilled tool: a small TypeScript module that calls the base tools in a fixed, known-good sequence, so the next run of the same kind of task makes one call instead of reasoning through it again. Answer by calling ${PROPOSE_TOOL_NAME} once with the whole module and its test inputs.`
  );
  sections.push(`## Why you are asked
${reasonText(request)}${note ? `
Note: ${note}` : ""}`);
  sections.push(`## Task of the run
${trace.task}`);
  sections.push(
    `## Calls the agent made (${calls.length} recorded, ${baseline} top-level base tool calls)
` + (calls.length > 0 ? callList(calls) : "(no calls were recorded)") + "\n\nFailed calls are marked FAILED; they are replayed as failures, so the tool must not repeat them" + (reason === "rebuild" ? " (except a call to the recovered tool: replay runs it live when allow_live_verification is on). " : ". ") + "Calls marked 'inside' ran inside a distilled tool and were recorded too; they replay like any other call."
  );
  sections.push(
    `## Base tools (as they are now)
${tools.length > 0 ? tools.map(toolText).join("\n") : "(none)"}`
  );
  sections.push(
    `## How to write the tool
${TOOL_FORMAT_GUIDE}

Replay matches each call on its exact tool name and arguments (schema defaults applied, key order ignored) and consumes the recorded responses in order: use the same arguments as the successful calls above, derived from the tool's input and earlier results rather than hard-coded where they vary between tasks. The efficiency check compares the replayed call count with this run's ${baseline} top-level base tool calls` + (replacing ? ` (or the baseline of ${replacing.name} v${replacing.version} when larger)` : "") + ": leave out the exploration, the failed attempts and the repeated lookups."
  );
  if (replacing) {
    sections.push(
      `## The version being replaced: ${replacing.name} v${replacing.version}
Keep the name '${replacing.name}' and its input schema unless the task forces a change.

\`\`\`ts
` + replacing.code.trimEnd() + "\n```"
    );
  }
  return sections.join("\n\n");
}
function reasonText(request) {
  const name = request.replacing?.name;
  switch (request.reason) {
    case "fallback":
      return "The agent completed this task successfully and the run is worth distilling, but the agent did not propose a tool. Write one that does this kind of task; choose a name that says what it does.";
    case "rebuild":
      return `A base tool that ${name ? `'${name}'` : "the distilled tool"} avoided (every call to it failed in the source run) has recovered. Write a new version under the same name that uses it where that takes fewer base tool calls. It must make fewer base calls than the version it replaces.`;
    case "replacement":
      return `The distilled tool${name ? ` '${name}'` : ""} failed at run time and was disabled; the agent then completed the task with the base tools. Write a replacement under the same name that follows the path that worked in this run.`;
  }
}
function callList(calls) {
  const number = /* @__PURE__ */ new Map();
  calls.forEach((c, i) => {
    number.set(c.id, i + 1);
  });
  const byId = new Map(calls.map((c) => [c.id, c]));
  return calls.map((c, i) => {
    const parent = c.parentId === null ? void 0 : byId.get(c.parentId);
    const inside = c.parentId === null ? "" : `   inside #${number.get(c.parentId) ?? "?"}${parent ? ` ${parent.tool}` : ""}: `;
    const kind = c.kind === "base" ? "" : ` [${c.kind === "other" ? "not a base tool" : c.kind}]`;
    const head = `${inside}#${i + 1} ${c.tool}${kind} ${clip(json(c.args), ARGS_LIMIT)}`;
    return `${head}
${inside ? "      " : "   "}${callOutcome(c)}`;
  }).join("\n");
}
function callOutcome(c) {
  if (c.status === "started") return "\u2192 never finished (not counted)";
  if (c.status === "error") return `\u2192 FAILED: ${clip(c.error ?? "(no error message)", OUTPUT_LIMIT)}`;
  return `\u2192 ok: ${clip(json(c.output), OUTPUT_LIMIT)}`;
}
function toolText(t) {
  return `- ${t.name}: ${t.description}
  input_schema: ${json(t.input_schema)}`;
}
function json(value) {
  if (value === void 0) return "(nothing)";
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

// core/verdict.ts
var CHECK_ORDER = ["static", "replay", "efficiency"];
var ALL_CHECKS_PASSED = "all checks passed";
function noEvidence() {
  return { ...NO_EVIDENCE, writes: [] };
}
function evidenceLines(e) {
  const lines = [];
  if (e.callSites) {
    lines.push(`call sites covered: ${e.callSites.covered}/${e.callSites.total}`);
    for (const u of e.callSites.uncovered)
      lines.push(`  never ran: line ${u.line}${u.tool ? ` (${u.tool})` : ""}`);
  }
  if (e.literals) {
    lines.push(`literals checked: ${e.literals.checked}`);
    for (const w of e.literals.warned) lines.push(`  warned: ${w}`);
  }
  if (e.runs) {
    lines.push(
      `reproduces ${e.runs.reproduced} of ${e.runs.total} recorded run${e.runs.total === 1 ? "" : "s"}`
    );
    for (const r of e.runs.notReproduced) lines.push(`  not reproduced: ${r.trace}: ${r.why}`);
  }
  if (e.writes.length) lines.push(`tools that may write: ${e.writes.join(", ")}`);
  if (e.promotion) lines.push(`promotion: ${e.promotion}`);
  return lines;
}
function formatProblem(p) {
  return p.line === void 0 ? p.message : `line ${p.line}: ${p.message}`;
}
function readTestInput(entry, index) {
  if (!isPlainObject(entry)) return `test_inputs[${index}] must be an input object`;
  if (!Object.hasOwn(entry, "trace")) return { input: entry, trace: null };
  const { trace, input } = entry;
  const extra = Object.keys(entry).filter((k) => k !== "trace" && k !== "input");
  if (typeof trace !== "string" || trace === "" || !isPlainObject(input) || extra.length > 0) {
    return `test_inputs[${index}] has a 'trace' key, so it must be { "trace": "<id of a recorded run>", "input": { ...the tool's input } } and nothing else`;
  }
  return { input, trace };
}
function testInputsOf(entries) {
  return entries.map((entry, i) => {
    const read = readTestInput(entry, i);
    if (typeof read === "string") throw new DistillError("PROPOSAL_INVALID", read);
    return read;
  });
}
function readProposal(input) {
  if (!isPlainObject(input)) return "the proposal must be an object { code, test_inputs }";
  const problems = [];
  const code = input["code"];
  const tests = input["test_inputs"];
  if (typeof code !== "string" || code.trim() === "")
    problems.push("'code' must be the whole TypeScript module as a string");
  if (!Array.isArray(tests)) {
    problems.push("'test_inputs' must be an array of input objects taken from this run");
  } else {
    for (const [i, entry] of tests.entries()) {
      const read = readTestInput(entry, i);
      if (typeof read === "string") problems.push(read);
    }
  }
  const unknown = Object.keys(input).filter((k) => k !== "code" && k !== "test_inputs");
  if (unknown.length)
    problems.push(
      `unknown field${unknown.length > 1 ? "s" : ""} ${unknown.map((k) => `'${k}'`).join(", ")}: a proposal has only code and test_inputs`
    );
  if (problems.length) return `invalid proposal: ${problems.join("; ")}`;
  return { code, test_inputs: tests };
}
function parseProposal(input) {
  const read = readProposal(input);
  if (typeof read === "string") throw new DistillError("PROPOSAL_INVALID", read);
  return read;
}
function toVerdict(v, status, report) {
  return {
    name: v.name,
    version: v.version,
    status,
    checks: report.checks,
    calls: report.calls,
    baseline: report.baseline,
    limit: report.limit,
    liveCalls: report.liveCalls,
    evidence: report.evidence
  };
}
function rejectedVerdict(name, message) {
  const notRun = { ok: false, problems: [{ message: "not run: the proposal was refused" }] };
  return {
    name,
    version: 0,
    status: "rejected",
    checks: { static: { ok: false, problems: [{ message }] }, replay: notRun, efficiency: notRun },
    calls: null,
    baseline: null,
    limit: null,
    liveCalls: [],
    evidence: noEvidence()
  };
}
function reportSummary(report) {
  for (const key of CHECK_ORDER) {
    const c = report.checks[key];
    if (!c.ok) return `${key} check failed: ${c.problems.map((p) => p.message).join("; ")}`;
  }
  return ALL_CHECKS_PASSED;
}
function verdictBody(v, evidence = true) {
  const failed = CHECK_ORDER.find((k) => !v.checks[k].ok);
  const lines = [
    failed ? `rejected: ${v.name} v${v.version}: ${failed} check failed` : `verified: ${v.name} v${v.version}`
  ];
  for (const key of CHECK_ORDER) {
    lines.push(...problemLines(v.checks[key]));
    if (key === failed) break;
  }
  if (v.calls !== null && v.baseline !== null && v.limit !== null) {
    const factor = v.baseline === 0 ? "" : ` \xD7 ${num(v.limit / v.baseline)}`;
    lines.push(`${v.calls} base calls; limit ${num(v.limit)} (baseline ${num(v.baseline)}${factor})`);
  }
  if (v.liveCalls.length > 0) lines.push(`ran live: ${v.liveCalls.join(", ")}`);
  if (evidence) lines.push(...evidenceLines(v.evidence));
  return { failed, lines };
}
function verdictText(v) {
  const { failed, lines } = verdictBody(v);
  if (failed) {
    lines.push(`Fix the problems above and call ${PROPOSE_TOOL_NAME} again with the whole corrected code.`);
  } else if (v.status === "active") {
    lines.push(`${v.name} v${v.version} is active: agents can call it now.`);
  } else if (v.status === "verified") {
    lines.push(`${v.name} v${v.version} is verified and waits for promote (tooldistill promote ${v.name}).`);
  } else {
    lines.push(`${v.name} v${v.version} is ${v.status}.`);
  }
  return lines.join("\n");
}
function problemLines(check) {
  return check.problems.map((p) => `- ${formatProblem(p)}`);
}
function num(n) {
  return String(Number(n.toFixed(2)));
}

// core/claude-distiller.ts
var MAX_ATTEMPTS = 3;
var DEFAULT_TIMEOUT_MS = 3e5;
var DEFAULT_MAX_RETRIES = 1;
var DEFAULT_MAX_TOKENS = 8192;
var SYSTEM_PROMPT = `You write distilled tools for tooldistill: short TypeScript modules that replay a path an agent found through its base tools. You always answer by calling ${PROPOSE_TOOL_NAME}; the library verifies what you propose.`;
var PROPOSE_TOOL = {
  name: PROPOSE_TOOL_NAME,
  description: "Propose a distilled tool: the whole TypeScript module and the inputs to replay it with. The library checks the code, replays it against the recorded run and compares its base call count with the run's.",
  input_schema: PROPOSE_INPUT_SCHEMA
};
var ClaudeDistiller = class {
  model;
  #options;
  #logger;
  #client;
  constructor(options) {
    this.model = options.model;
    this.#options = options;
    this.#logger = options.logger ?? silentLogger;
    this.#client = options.client;
  }
  async distill(request, verify) {
    const client = this.#getClient();
    const messages = [{ role: "user", content: proposalPrompt(request) }];
    const attempts = request.reason === "rebuild" && verify ? MAX_ATTEMPTS : 1;
    let last = null;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      this.#logger.info(`distiller: asking ${this.model} for a proposal (attempt ${attempt} of ${attempts})`);
      let answer;
      try {
        answer = await this.#ask(client, messages);
      } catch (err) {
        if (last && err instanceof DistillError) {
          this.#logger.warn(
            `distiller: attempt ${attempt} failed, keeping the previous proposal: ${err.message}`
          );
          return last;
        }
        throw err;
      }
      last = answer.proposal;
      if (!verify || attempts === 1) return last;
      const verdict = await verify(last);
      if (isVerified(verdict)) return last;
      if (attempt === attempts) break;
      messages.push({ role: "assistant", content: answer.content });
      messages.push({
        role: "user",
        content: [
          {
            type: "tool_result",
            tool_use_id: answer.toolUseId,
            content: verdictText(verdict),
            is_error: true
          }
        ]
      });
    }
    this.#logger.warn(`distiller: no verified proposal after ${attempts} attempts; returning the last one`);
    return last;
  }
  /** The key is checked before any request is built, so a missing key never reaches the network. */
  #getClient() {
    if (this.#client) return this.#client;
    const apiKey = this.#options.apiKey || process.env["ANTHROPIC_API_KEY"];
    if (!apiKey) {
      throw new DistillError(
        "DISTILLER",
        "ANTHROPIC_API_KEY is not set: the distiller calls the Claude API. Export it in your shell (the CLI does not read .env files) or configure a custom distiller."
      );
    }
    this.#client = new Anthropic({
      apiKey,
      baseURL: this.#options.baseURL,
      timeout: this.#options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      maxRetries: this.#options.maxRetries ?? DEFAULT_MAX_RETRIES
    });
    return this.#client;
  }
  async #ask(client, messages) {
    let response;
    try {
      response = await client.messages.create({
        model: this.model,
        max_tokens: this.#options.maxTokens ?? DEFAULT_MAX_TOKENS,
        system: SYSTEM_PROMPT,
        tools: [PROPOSE_TOOL],
        tool_choice: { type: "tool", name: PROPOSE_TOOL_NAME },
        messages
      });
    } catch (err) {
      throw this.#apiError(err, client);
    }
    const cut = response.stop_reason === "max_tokens" ? ` (the answer was cut off at max_tokens)` : "";
    const block = response.content.find(
      (b) => b.type === "tool_use" && b.name === PROPOSE_TOOL_NAME
    );
    if (!block) {
      throw new DistillError(
        "DISTILLER",
        `the model answered without calling ${PROPOSE_TOOL_NAME}${cut} (stop_reason: ${response.stop_reason}); try again, or set distiller_model to a model that supports tool use`
      );
    }
    const proposal = readProposal(block.input);
    if (typeof proposal === "string") {
      throw new DistillError(
        "DISTILLER",
        `the model answered without calling ${PROPOSE_TOOL_NAME} properly: ${proposal}${cut}; try again`
      );
    }
    const content = [];
    for (const b of response.content) {
      if (b.type === "text") content.push({ type: "text", text: b.text });
    }
    content.push({ type: "tool_use", id: block.id, name: block.name, input: block.input });
    return { proposal, toolUseId: block.id, content };
  }
  #apiError(err, client) {
    const options = { cause: err };
    if (err instanceof DistillError) return err;
    if (err instanceof APIConnectionTimeoutError) {
      return new DistillError(
        "DISTILLER",
        `the Claude API at ${client.baseURL} did not answer within ${client.timeout} ms; try again later`,
        options
      );
    }
    if (err instanceof APIConnectionError) {
      return new DistillError(
        "DISTILLER",
        `could not reach the Claude API at ${client.baseURL}: ${rootCause(err)}; check your network connection (and ANTHROPIC_BASE_URL if you set it)`,
        options
      );
    }
    if (err instanceof RateLimitError) {
      return new DistillError("DISTILLER", "rate limited by the Claude API (429); try again later", options);
    }
    if (err instanceof AuthenticationError) {
      return new DistillError(
        "DISTILLER",
        `the Claude API rejected the API key (401: ${err.apiMessage ?? err.message}); check ANTHROPIC_API_KEY`,
        options
      );
    }
    if (err instanceof APIError) {
      const status = err.status ?? "no status";
      const what = err.apiMessage ?? err.message.replace(/^\d{3}\s+/, "");
      const hint = err.status === 404 || err.status === 400 ? `check that distiller_model '${this.model}' names a model your key can use` : typeof err.status === "number" && err.status >= 500 ? "the API is having trouble; try again later" : "check your account and distiller_model";
      return new DistillError("DISTILLER", `the Claude API answered ${status}: ${what}; ${hint}`, options);
    }
    if (err instanceof AnthropicError) {
      return new DistillError("DISTILLER", `the Claude client failed: ${err.message}`, options);
    }
    return new DistillError("DISTILLER", `the Claude API call failed: ${errorMessage(err)}`, options);
  }
};
function isVerified(v) {
  return v.checks.static.ok && v.checks.replay.ok && v.checks.efficiency.ok;
}
function rootCause(err) {
  let current = err;
  let message = err.message;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (current.message) message = current.message;
    current = current.cause;
  }
  return message;
}

export {
  PROPOSE_TOOL_NAME,
  nudgeText,
  noEvidence,
  formatProblem,
  testInputsOf,
  parseProposal,
  toVerdict,
  rejectedVerdict,
  reportSummary,
  verdictText,
  PROPOSE_INPUT_SCHEMA,
  ClaudeDistiller
};
