import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);

// core/distill/prompts.ts
var PROPOSE_TOOL_NAME = "propose_distilled_tool";
var TOOL_FORMAT_GUIDE = `A distilled tool is one TypeScript module:

import { distilledTool, call, notApplicable } from "tooldistill";

export default distilledTool({
  name: "create_invoice_from_email",            // ^[a-z][a-z0-9_]{2,35}$, no "__", not a base tool's name,
                                                // not propose_distilled_tool nor td_/tooldistill_/distill_\u2026
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

// core/util/canonical.ts
function canonicalArgs(args, schema) {
  const withDefaults = schema ? applyDefaults(args, schema) : args;
  return sortKeys(withDefaults);
}
function applyDefaults(value, schema) {
  if (!isPlainObject(value)) return value;
  const props = schema["properties"];
  if (!isPlainObject(props)) return value;
  const out = { ...value };
  for (const [key, sub] of Object.entries(props)) {
    if (!isPlainObject(sub)) continue;
    const given = Object.hasOwn(out, key) ? out[key] : void 0;
    if (given === void 0 && "default" in sub) setOwn(out, key, structuredClone(sub["default"]));
    const now = Object.hasOwn(out, key) ? out[key] : void 0;
    if (now !== void 0) setOwn(out, key, applyDefaults(now, sub));
  }
  return out;
}
function sortKeys(value) {
  if (Array.isArray(value)) return value.map((v) => v === void 0 ? null : sortKeys(v));
  if (isPlainObject(value)) {
    const out = {};
    for (const key of Object.keys(value).sort()) {
      const v = value[key];
      if (v !== void 0) setOwn(out, key, sortKeys(v));
    }
    return out;
  }
  return value;
}
function setOwn(target, key, value) {
  if (key === "__proto__") {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else target[key] = value;
}
function receivedText(input) {
  try {
    return JSON.stringify(input) ?? null;
  } catch {
    return null;
  }
}
function stableStringify(value) {
  return JSON.stringify(sortKeys(value)) ?? "null";
}
function isPlainObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
function dangerousKeyPath(value) {
  const stack = [{ value, path: "" }];
  const seen = /* @__PURE__ */ new Set();
  for (let next = stack.pop(); next !== void 0; next = stack.pop()) {
    const { value: v, path } = next;
    if (typeof v !== "object" || v === null || seen.has(v)) continue;
    seen.add(v);
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], path: `${path}[${i}]` });
      continue;
    }
    const keys = Object.keys(v);
    for (const key of keys) {
      const here = path === "" ? key : `${path}.${key}`;
      const child = v[key];
      if (key === "__proto__") return here;
      if (key === "constructor" && isPlainObject(child) && Object.hasOwn(child, "prototype")) {
        return `${here}.prototype`;
      }
    }
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i];
      stack.push({ value: v[key], path: path === "" ? key : `${path}.${key}` });
    }
  }
  return null;
}
function dangerousKeyProblem(args) {
  const path = dangerousKeyPath(args);
  if (path === null) return null;
  return `the arguments have the key '${path.slice(0, 200)}', which tooldistill never sends (it can reach a prototype in the code that receives it): pass the data under another key`;
}

export {
  PROPOSE_TOOL_NAME,
  TOOL_FORMAT_GUIDE,
  nudgeText,
  canonicalArgs,
  setOwn,
  receivedText,
  stableStringify,
  isPlainObject,
  dangerousKeyProblem
};
