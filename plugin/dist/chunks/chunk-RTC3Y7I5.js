import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  PROPOSE_INPUT_SCHEMA,
  proposalPrompt
} from "./chunk-OKH2WWIC.js";
import {
  readProposal,
  verdictText
} from "./chunk-HCN7KP44.js";
import {
  silentLogger
} from "./chunk-J2PGGSMV.js";
import {
  PROPOSE_TOOL_NAME
} from "./chunk-6YXHXBUL.js";
import {
  DistillError,
  errorMessage
} from "./chunk-WEYMVVQ3.js";
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  Anthropic,
  AnthropicError,
  AuthenticationError,
  RateLimitError
} from "./chunk-DJFBGJU6.js";

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
  ClaudeDistiller
};
