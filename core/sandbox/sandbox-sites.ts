/**
 * Which call site made a call, found out of band: the tool runs exactly the source it was given (nothing is
 * inserted, so `String(fn)` and its stacks are the same in verification and live), and the prelude takes the
 * engine's stack inside `call`. QuickJS puts each frame at the `(` of the call it is making, as
 * `tool.ts:<line>:<column>`, so the caller's frame is at the `(` of the `call(...)` that ran; the host maps that
 * place to the site the parse found there.
 *
 * A frame's text also holds its function's name, which the code can set to anything (newlines and a forged
 * `(tool.ts:…)` included). The place of the true caller is always in the stack (the static rules leave `call`
 * no way to be reached but a call site, so the caller is at one), so the host accepts a stack only when exactly
 * one site's place occurs in it: then that one is the caller's. Anything else (a forged place next to the real
 * one, a call through a callback or a getter nested in another call) is no site, and fails a run that has sites.
 */
import type { CallSite } from "../verify/call-sites.ts";
import type { MappedBody } from "../verify/module-body.ts";
import { BODY_PREFIX, TOOL_FILE } from "./sandbox-guest.ts";

/** A tool's call sites and, for each, where its `(` is in the code the engine evaluates. */
export interface SitePositions {
  sites: readonly CallSite[];
  /** `line:column` as the engine's stacks write it (1-based, columns in code points) → the site's id. */
  at: ReadonlyMap<string, number>;
}

const PLACE = new RegExp(`\\(${TOOL_FILE.replace(".", "\\.")}:(\\d+):(\\d+)\\)`, "g");

/**
 * The places of `sites` (each with `at`, the offset of its `(` in `source`) in the evaluated code of `mapped`,
 * the body made from `source`.
 */
export function sitePositions(source: string, mapped: MappedBody, sites: readonly CallSite[]): SitePositions {
  const evaluated = BODY_PREFIX + mapped.body;
  const lineStarts = [0];
  for (let i = evaluated.indexOf("\n"); i !== -1; i = evaluated.indexOf("\n", i + 1)) lineStarts.push(i + 1);
  const at = new Map<string, number>();
  for (const site of sites) {
    if (site.at === undefined || site.at < 0 || site.at >= source.length) continue;
    const offset = BODY_PREFIX.length + mapped.offsetOf(site.at);
    at.set(placeOf(evaluated, lineStarts, offset), site.id);
  }
  return { sites, at };
}

/** `line:column` of `offset` in `text` as QuickJS counts them: 1-based, the column in code points. */
function placeOf(text: string, lineStarts: readonly number[], offset: number): string {
  let lo = 0;
  let hi = lineStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (lineStarts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  const column = [...text.slice(lineStarts[lo], offset)].length + 1;
  return `${lo + 1}:${column}`;
}

/** The id of the site that made the call whose stack is `stack`, or null when no single site is in it. */
export function siteFromStack(positions: SitePositions, stack: string | null): number | null {
  if (stack === null) return null;
  let found: number | null = null;
  for (const match of stack.matchAll(PLACE)) {
    const id = positions.at.get(`${match[1]}:${match[2]}`);
    if (id === undefined) continue;
    if (found !== null) return null;
    found = id;
  }
  return found;
}
