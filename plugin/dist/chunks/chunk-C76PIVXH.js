import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  readProposal,
  verdictText
} from "./chunk-LNPORMZP.js";
import {
  clip
} from "./chunk-DFWB4XA7.js";
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
  silentLogger
} from "./chunk-J2PGGSMV.js";
import {
  PROPOSE_TOOL_NAME,
  TOOL_FORMAT_GUIDE
} from "./chunk-VH3A3DZF.js";
import {
  DistillError,
  errorMessage
} from "./chunk-WEYMVVQ3.js";

// core/distill/distiller.ts
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

// core/distill/claude-distiller.ts
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
  PROPOSE_INPUT_SCHEMA,
  proposalPrompt,
  ClaudeDistiller
};
