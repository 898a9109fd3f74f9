/**
 * The default distiller: asks Claude for a proposal with forced tool use. The only core module that
 * imports `@anthropic-ai/sdk`, so the rest of the library runs (and tests) without the network.
 */

import Anthropic, {
  AnthropicError,
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  AuthenticationError,
  RateLimitError,
} from "@anthropic-ai/sdk";
import { DistillError, errorMessage } from "../errors.ts";
import { type Logger, silentLogger, type Verdict } from "../types.ts";
import { readProposal, verdictText } from "../verify/verdict.ts";
import {
  type Distiller,
  type DistillRequest,
  PROPOSE_INPUT_SCHEMA,
  PROPOSE_TOOL_NAME,
  type Proposal,
  proposalPrompt,
  type VerifyFn,
} from "./distiller.ts";

/** How the Claude distiller reaches the API; `apiKey` falls back to `ANTHROPIC_API_KEY`, `client` replaces all of it. */
export interface ClaudeDistillerOptions {
  model: string;
  apiKey?: string;
  baseURL?: string;
  timeoutMs?: number;
  /** SDK retries per request; low so a failing rebuild or fallback reports quickly. */
  maxRetries?: number;
  maxTokens?: number;
  logger?: Logger;
  client?: Anthropic;
}

/** One first answer plus two more after rejected verdicts, for rebuilds. */
const MAX_ATTEMPTS = 3;
const DEFAULT_TIMEOUT_MS = 300_000;
const DEFAULT_MAX_RETRIES = 1;
/** A distilled tool is a short module; this leaves room for a long one without hitting the SDK's non-streaming cap. */
const DEFAULT_MAX_TOKENS = 8192;

const SYSTEM_PROMPT =
  "You write distilled tools for tooldistill: short TypeScript modules that replay a path an agent found through its " +
  `base tools. You always answer by calling ${PROPOSE_TOOL_NAME}; the library verifies what you propose.`;

const PROPOSE_TOOL: Anthropic.Messages.Tool = {
  name: PROPOSE_TOOL_NAME,
  description:
    "Propose a distilled tool: the whole TypeScript module and the inputs to replay it with. The library checks the code, " +
    "replays it against the recorded run and compares its base call count with the run's.",
  input_schema: PROPOSE_INPUT_SCHEMA as Anthropic.Messages.Tool.InputSchema,
};

interface Answer {
  proposal: Proposal;
  toolUseId: string;
  /** What the model said, echoed back when the conversation continues with a verdict. */
  content: Anthropic.Messages.ContentBlockParam[];
}

/** Asks Claude for a proposal; on a rebuild with `verify`, feeds rejected verdicts back up to twice. */
export class ClaudeDistiller implements Distiller {
  readonly model: string;
  readonly #options: ClaudeDistillerOptions;
  readonly #logger: Logger;
  #client: Anthropic | undefined;

  constructor(options: ClaudeDistillerOptions) {
    this.model = options.model;
    this.#options = options;
    this.#logger = options.logger ?? silentLogger;
    this.#client = options.client;
  }

  async distill(request: DistillRequest, verify?: VerifyFn): Promise<Proposal | null> {
    const client = this.#getClient();
    const messages: Anthropic.Messages.MessageParam[] = [{ role: "user", content: proposalPrompt(request) }];
    const attempts = request.reason === "rebuild" && verify ? MAX_ATTEMPTS : 1;
    let last: Proposal | null = null;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      this.#logger.info(`distiller: asking ${this.model} for a proposal (attempt ${attempt} of ${attempts})`);
      let answer: Answer;
      try {
        answer = await this.#ask(client, messages);
      } catch (err) {
        // A retry that fails still leaves an earlier, already verified-and-stored proposal worth returning.
        if (last && err instanceof DistillError) {
          this.#logger.warn(
            `distiller: attempt ${attempt} failed, keeping the previous proposal: ${err.message}`,
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
            is_error: true,
          },
        ],
      });
    }
    this.#logger.warn(`distiller: no verified proposal after ${attempts} attempts; returning the last one`);
    return last;
  }

  /** The key is checked before any request is built, so a missing key never reaches the network. */
  #getClient(): Anthropic {
    if (this.#client) return this.#client;
    const apiKey = this.#options.apiKey || process.env["ANTHROPIC_API_KEY"];
    if (!apiKey) {
      throw new DistillError(
        "DISTILLER",
        "ANTHROPIC_API_KEY is not set: the distiller calls the Claude API. Export it in your shell " +
          "(the CLI does not read .env files) or configure a custom distiller.",
      );
    }
    this.#client = new Anthropic({
      apiKey,
      baseURL: this.#options.baseURL,
      timeout: this.#options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      maxRetries: this.#options.maxRetries ?? DEFAULT_MAX_RETRIES,
    });
    return this.#client;
  }

  async #ask(client: Anthropic, messages: Anthropic.Messages.MessageParam[]): Promise<Answer> {
    let response: Anthropic.Messages.Message;
    try {
      response = await client.messages.create({
        model: this.model,
        max_tokens: this.#options.maxTokens ?? DEFAULT_MAX_TOKENS,
        system: SYSTEM_PROMPT,
        tools: [PROPOSE_TOOL],
        tool_choice: { type: "tool", name: PROPOSE_TOOL_NAME },
        messages,
      });
    } catch (err) {
      throw this.#apiError(err, client);
    }
    const cut = response.stop_reason === "max_tokens" ? ` (the answer was cut off at max_tokens)` : "";
    const block = response.content.find(
      (b): b is Anthropic.Messages.ToolUseBlock => b.type === "tool_use" && b.name === PROPOSE_TOOL_NAME,
    );
    if (!block) {
      throw new DistillError(
        "DISTILLER",
        `the model answered without calling ${PROPOSE_TOOL_NAME}${cut} (stop_reason: ${response.stop_reason}); ` +
          "try again, or set distiller_model to a model that supports tool use",
      );
    }
    const proposal = readProposal(block.input);
    if (typeof proposal === "string") {
      throw new DistillError(
        "DISTILLER",
        `the model answered without calling ${PROPOSE_TOOL_NAME} properly: ${proposal}${cut}; try again`,
      );
    }
    // Echo only what we understand: text and the one proposal call, so the follow-up turn answers every tool_use.
    const content: Anthropic.Messages.ContentBlockParam[] = [];
    for (const b of response.content) {
      if (b.type === "text") content.push({ type: "text", text: b.text });
    }
    content.push({ type: "tool_use", id: block.id, name: block.name, input: block.input });
    return { proposal, toolUseId: block.id, content };
  }

  #apiError(err: unknown, client: Anthropic): DistillError {
    const options = { cause: err };
    if (err instanceof DistillError) return err;
    if (err instanceof APIConnectionTimeoutError) {
      return new DistillError(
        "DISTILLER",
        `the Claude API at ${client.baseURL} did not answer within ${client.timeout} ms; try again later`,
        options,
      );
    }
    if (err instanceof APIConnectionError) {
      return new DistillError(
        "DISTILLER",
        `could not reach the Claude API at ${client.baseURL}: ${rootCause(err)}; check your network connection ` +
          "(and ANTHROPIC_BASE_URL if you set it)",
        options,
      );
    }
    if (err instanceof RateLimitError) {
      return new DistillError("DISTILLER", "rate limited by the Claude API (429); try again later", options);
    }
    if (err instanceof AuthenticationError) {
      return new DistillError(
        "DISTILLER",
        `the Claude API rejected the API key (401: ${err.apiMessage ?? err.message}); check ANTHROPIC_API_KEY`,
        options,
      );
    }
    if (err instanceof APIError) {
      const status = err.status ?? "no status";
      // The SDK's own message repeats the status ("404 status code (no body)").
      const what = err.apiMessage ?? err.message.replace(/^\d{3}\s+/, "");
      const hint =
        err.status === 404 || err.status === 400
          ? `check that distiller_model '${this.model}' names a model your key can use`
          : typeof err.status === "number" && err.status >= 500
            ? "the API is having trouble; try again later"
            : "check your account and distiller_model";
      return new DistillError("DISTILLER", `the Claude API answered ${status}: ${what}; ${hint}`, options);
    }
    if (err instanceof AnthropicError) {
      return new DistillError("DISTILLER", `the Claude client failed: ${err.message}`, options);
    }
    return new DistillError("DISTILLER", `the Claude API call failed: ${errorMessage(err)}`, options);
  }
}

/** All three checks passed; `status` may be verified or, with auto_promote, active. */
function isVerified(v: Verdict): boolean {
  return v.checks.static.ok && v.checks.replay.ok && v.checks.efficiency.ok;
}

/** fetch wraps the interesting part ("connect ECONNREFUSED 127.0.0.1:9") in a chain of causes. */
function rootCause(err: Error): string {
  let current: unknown = err;
  let message = err.message;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (current.message) message = current.message;
    current = current.cause;
  }
  return message;
}
