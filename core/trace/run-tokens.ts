/**
 * A run's model tokens: one definition for `traces list`, `traces show`, `show` and the report. Pure.
 *
 * The total is every token the model read or wrote in the run: input + output + cache creation + cache read. Cache
 * reads are cheaper per token but still context the run carried; counting them keeps a run that re-read a long
 * prompt from looking cheaper than it was. The four parts are always given beside the total.
 */
import type { UsageTotals } from "../types.ts";

/** The total tokens of one run's usage (see the module comment for why cache tokens count). */
export function runTokens(u: UsageTotals): number {
  return u.input_tokens + u.output_tokens + u.cache_creation_input_tokens + u.cache_read_input_tokens;
}

/** Usage with every part zero. */
export function zeroUsage(): UsageTotals {
  return { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
}

/** `a` + `b`, part by part. */
export function addUsage(a: UsageTotals, b: UsageTotals): UsageTotals {
  return {
    input_tokens: a.input_tokens + b.input_tokens,
    output_tokens: a.output_tokens + b.output_tokens,
    cache_creation_input_tokens: a.cache_creation_input_tokens + b.cache_creation_input_tokens,
    cache_read_input_tokens: a.cache_read_input_tokens + b.cache_read_input_tokens,
  };
}
