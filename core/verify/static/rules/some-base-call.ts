/** Rule `some-base-call`: the tool makes at least one base call. */
import type { StaticRule } from "../types.ts";

const messages = {
  none: "the tool calls no base tool: a distilled tool must call at least one base tool through call(...)",
} as const;

/** A distilled tool exists to replace base calls: one that makes none is refused. */
export const someBaseCall: StaticRule<keyof typeof messages> = {
  id: "some-base-call",
  description: "the tool makes at least one base call through call(...) outside check()",
  messages,
  end(state) {
    if (state.baseCalls === 0) state.report(someBaseCall, "none", null, undefined);
  },
};
