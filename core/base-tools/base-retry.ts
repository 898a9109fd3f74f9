/**
 * Retries of base calls made by a distilled tool: an infrastructure failure (base-failure.ts) of a base tool that
 * is read-only or declares `idempotentHint: true` is tried again, a bounded number of times with exponential
 * backoff (the `base_call_retries` setting). A write that does not declare itself idempotent is never retried:
 * a 503 may come after the write happened. Each attempt is its own recorded call, so the trace shows them all.
 */
import { setTimeout as delay } from "node:timers/promises";
import type { RetryRule } from "../config/settings.ts";
import type { BaseCallOutcome } from "../trace/trace.ts";
import type { ToolDef } from "../types.ts";
import { isReadOnly } from "./tool-effects.ts";

/** True when a failed call of `tool` may be made again: it only reads, or its definition says repeating is safe. */
export function mayRetry(tool: ToolDef): boolean {
  return isReadOnly(tool) || tool.annotations?.idempotentHint === true;
}

/** The wait before attempt `attempt + 1` (attempt ≥ 1): `backoff`, doubled per attempt, at most `cap`. */
export function backoffMs(rule: RetryRule, attempt: number): number {
  return Math.min(rule.cap, rule.backoff * 2 ** (attempt - 1));
}

/**
 * Makes one base call through `attempt` (which runs and records it), again after a retryable failure while the
 * rule and the tool allow. Returns the last attempt's outcome; what `attempt` throws (the host's own timeout)
 * goes on at once.
 */
export async function callWithRetries(
  tool: ToolDef,
  rule: RetryRule,
  attempt: (n: number) => Promise<BaseCallOutcome>,
): Promise<BaseCallOutcome> {
  const attempts = mayRetry(tool) ? rule.attempts : 1;
  for (let n = 1; ; n++) {
    const outcome = await attempt(n);
    if (outcome.ok || n >= attempts || !outcome.failure.retryable) return outcome;
    const wait = backoffMs(rule, n);
    if (wait > 0) await delay(wait);
  }
}
