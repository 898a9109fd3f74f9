import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  clip
} from "./chunk-DFWB4XA7.js";
import {
  NO_EVIDENCE
} from "./chunk-J2PGGSMV.js";
import {
  PROPOSE_TOOL_NAME,
  dangerousKeyProblem,
  isPlainObject
} from "./chunk-6YXHXBUL.js";
import {
  DistillError
} from "./chunk-WEYMVVQ3.js";

// core/verify/proposal-limits.ts
var MAX_SOURCE_BYTES = 32768;
var MAX_SOURCE_LINES = 1e3;
var MAX_AST_NODES = 12e3;
var MAX_CALL_SITES = 200;
var MAX_AST_DEPTH = 200;
var MAX_PROBLEMS = 50;
var MAX_VERDICT_CHARS = 24e3;
var SHRINK = "a distilled tool is a short fixed sequence of base calls: split it or remove what it does not need";
function sourceSizeProblem(source) {
  const bytes = source.length * 3 <= MAX_SOURCE_BYTES ? source.length : Buffer.byteLength(source, "utf8");
  if (bytes > MAX_SOURCE_BYTES) {
    return {
      rule: "source-too-large",
      token: "source",
      message: `the source is ${bytes} bytes, over the limit of ${MAX_SOURCE_BYTES}: ${SHRINK}`
    };
  }
  let lines = 1;
  for (let i = source.indexOf("\n"); i !== -1; i = source.indexOf("\n", i + 1)) {
    if (++lines > MAX_SOURCE_LINES) {
      return {
        rule: "source-too-large",
        line: MAX_SOURCE_LINES + 1,
        token: "source",
        message: `the source has more than ${MAX_SOURCE_LINES} lines: ${SHRINK}`
      };
    }
  }
  return null;
}
function looksLikeCallSite(node) {
  if (node.type !== "CallExpression" && node.type !== "OptionalCallExpression") return false;
  const callee = node.callee;
  if (callee.type === "Identifier") return callee.name === "call";
  if (callee.type === "MemberExpression" || callee.type === "OptionalMemberExpression") {
    return callee.property.type === "Identifier" && callee.property.name === "call";
  }
  return false;
}
function treeSizeProblem(ast) {
  let nodes = 0;
  let sites = 0;
  const stack = [{ node: ast, depth: 0 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop();
    const at = node.loc ? { line: node.loc.start.line } : {};
    if (++nodes > MAX_AST_NODES) {
      return {
        rule: "tree-too-large",
        ...at,
        token: "source",
        message: `the code has more than ${MAX_AST_NODES} syntax nodes: ${SHRINK}`
      };
    }
    if (depth > MAX_AST_DEPTH) {
      return {
        rule: "tree-too-large",
        ...at,
        token: "source",
        message: `the code nests more than ${MAX_AST_DEPTH} levels deep: flatten it`
      };
    }
    if (looksLikeCallSite(node) && ++sites > MAX_CALL_SITES) {
      return {
        rule: "tree-too-large",
        ...at,
        token: "call",
        message: `the code has more than ${MAX_CALL_SITES} call sites: ${SHRINK}`
      };
    }
    for (const key of Object.keys(node)) {
      if (key === "loc" || key === "leadingComments" || key === "trailingComments" || key === "innerComments")
        continue;
      const child = node[key];
      if (Array.isArray(child)) {
        for (const c of child) if (isNode(c)) stack.push({ node: c, depth: depth + 1 });
      } else if (isNode(child)) {
        stack.push({ node: child, depth: depth + 1 });
      }
    }
  }
  return null;
}
function isNode(value) {
  return typeof value === "object" && value !== null && typeof value.type === "string";
}
function boundedProblems(problems) {
  if (problems.length <= MAX_PROBLEMS) return problems;
  const more = problems.length - MAX_PROBLEMS;
  return [
    ...problems.slice(0, MAX_PROBLEMS).map((p) => ({ ...p, message: clip(p.message, 1e3) })),
    {
      rule: "too-many-problems",
      message: `and ${more} more problem${more === 1 ? "" : "s"}: fix these and propose again to see the rest`
    }
  ];
}
function boundedText(body, last) {
  const clipped = clip(body, MAX_VERDICT_CHARS);
  return last === void 0 ? clipped : `${clipped}
${last}`;
}

// core/verify/verdict.ts
var CHECK_ORDER = ["static", "replay", "efficiency"];
var ALL_CHECKS_PASSED = "all checks passed";
function noEvidence() {
  return { ...NO_EVIDENCE, writes: [] };
}
function evidenceLines(e) {
  const lines = [];
  if (e.callSites) {
    lines.push(`call sites covered: ${e.callSites.covered}/${e.callSites.total}`);
    for (const u of e.callSites.uncovered) {
      const what = u.inFailedReplay ? "ran only in a replay that failed" : "never ran";
      lines.push(`  ${what}: line ${u.line}${u.tool ? ` (${u.tool})` : ""}`);
    }
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
  const read = readEntry(entry);
  if (read === null) {
    return `test_inputs[${index}] has a 'trace' key, so it must be { "trace": "<id of a recorded run>", "input": { ...the tool's input } } and nothing else`;
  }
  const dangerous = dangerousKeyProblem(read.input);
  if (dangerous !== null)
    return `test_inputs[${index}]: ${dangerous.replace("the arguments have", "the input has")}`;
  return read;
}
function readEntry(entry) {
  if (!Object.hasOwn(entry, "trace")) return { input: entry, trace: null };
  const { trace, input } = entry;
  const extra = Object.keys(entry).filter((k) => k !== "trace" && k !== "input");
  if (typeof trace !== "string" || trace === "" || !isPlainObject(input) || extra.length > 0) return null;
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
  const notRun = { ok: false, problems: [{ rule: "not-run", message: "not run: the proposal was refused" }] };
  return {
    name,
    version: 0,
    status: "rejected",
    checks: {
      static: { ok: false, problems: [{ rule: "proposal-refused", message }] },
      replay: notRun,
      efficiency: notRun
    },
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
function verdictReport(v, options = {}) {
  const { failed, lines } = verdictBody(v, options.evidence ?? true);
  const id = `${v.name} v${v.version}`;
  if (v.status === "active") lines.push(`${id} is active: agents can call it.`);
  else if (v.status === "verified")
    lines.push(`${id} is verified: tooldistill promote ${v.name} makes it available to agents.`);
  else if (v.status === "deprecated") {
    lines.push(
      failed ? `${id} is deprecated: it no longer passes against the current base tools. The next successful agent run can propose a new version; tooldistill promote ${v.name} --version N rolls back to an earlier one that still passes.` : `${id} is deprecated; tooldistill promote ${v.name} --version ${v.version} makes it active again.`
    );
  } else if (v.status === "suspect") {
    lines.push(
      `${id} is still suspect: a runtime failure is cleared only by a live pass of the calls that failed: tooldistill verify ${v.name} --version ${v.version} --live (reads run for real; add --allow-writes when a call that failed may write).`
    );
  } else if (v.status === "rejected") {
    lines.push(
      `${id} is rejected: it is never offered to agents. An agent proposes a corrected version (it reuses v${v.version}), or tooldistill rebuild ${v.name} when a rebuild is queued.`
    );
  } else if (v.status === "superseded") {
    lines.push(
      `${id} is superseded: a newer version was promoted before it was used. tooldistill promote ${v.name} --version ${v.version} makes it active after re-passing verification.`
    );
  } else {
    lines.push(
      failed ? `${id} stays a draft: it is never offered to agents. An agent proposes a corrected version (or tooldistill rebuild ${v.name} when a rebuild is queued).` : `${id} is a draft.`
    );
  }
  return lines.join("\n");
}
function verdictText(v) {
  const { failed, lines } = verdictBody(v);
  let last;
  if (failed) {
    last = `Fix the problems above and call ${PROPOSE_TOOL_NAME} again with the whole corrected code.`;
  } else if (v.status === "active") {
    last = `${v.name} v${v.version} is active: agents can call it now.`;
  } else if (v.status === "verified") {
    last = `${v.name} v${v.version} is verified and waits for promote (tooldistill promote ${v.name}).`;
  } else {
    last = `${v.name} v${v.version} is ${v.status}.`;
  }
  return boundedText(lines.join("\n"), last);
}
function problemLines(check) {
  return check.problems.map((p) => `- ${formatProblem(p)}`);
}
function num(n) {
  return String(Number(n.toFixed(2)));
}

export {
  sourceSizeProblem,
  treeSizeProblem,
  boundedProblems,
  boundedText,
  noEvidence,
  evidenceLines,
  formatProblem,
  testInputsOf,
  readProposal,
  parseProposal,
  toVerdict,
  rejectedVerdict,
  reportSummary,
  verdictReport,
  verdictText
};
