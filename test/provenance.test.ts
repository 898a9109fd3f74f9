import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { DistillError } from "../core/errors.ts";
import type { Problem } from "../core/types.ts";
import {
  checkArgumentProvenance,
  MAX_ALTERNATIVES,
  MAX_DEPTH,
  MAX_VISITS,
  type RunFacts,
} from "../core/verify/provenance/provenance.ts";
import { toolSource } from "./sandbox-helpers.ts";

/**
 * The source run of a booking task: search, book, pay, invoice. The agent passed `channel: "api"` to the
 * flight tools itself; the flight id, the airline's account and the booking reference came from responses.
 */
const RUN: RunFacts = {
  task: "Book the cheapest flight from SFO to JFK on 2025-03-01 for Dana Reyes, budget 600, and pay it from acct-4410 (cost center CC-310)",
  inputs: [{ from: "SFO", to: "JFK", date: "2025-03-01", traveller: "Dana Reyes", loyalty: "LY-88812" }],
  calls: [
    {
      tool: "flights_search",
      args: { from: "SFO", to: "JFK", date: "2025-03-01", channel: "api", cabin: "economy-plus" },
      output: {
        channel: "api",
        flights: [
          { id: "F-77", label: "Skyway F-77 (nonstop)", price: 412, account: "acct-9921", seats: "9" },
          { id: "F-80", label: "Skyway F-80", price: 530, account: "acct-9921", seats: "2" },
        ],
      },
      ok: true,
    },
    {
      tool: "flights_book",
      args: { flight_id: "F-77", traveller: "Dana Reyes", channel: "api" },
      output: { booking: "BK-5521", status: "held" },
      ok: true,
    },
    {
      tool: "payments_send",
      args: { to: "acct-9921", amount: 412, from: "acct-4410", memo: "BK-5521" },
      ok: false,
    },
    {
      tool: "payments_send",
      args: { to: "acct-9921", amount: 412, from: "acct-4410", memo: "BK-5521" },
      output: { payment: "P-1", status: "sent" },
      ok: true,
    },
    {
      tool: "invoices_create",
      args: { lines: [{ sku: "FARE", amount: 412 }], currency: "USD", "cost center": "CC-310" },
      output: { invoice: "INV-3" },
      ok: true,
    },
  ],
};

/** The tool's run body is `lines`; line 1 of it is line 8 of the module (see toolSource). */
function check(lines: string[], facts: RunFacts = RUN) {
  return checkArgumentProvenance(toolSource(lines.map((l) => `    ${l}`).join("\n")), facts);
}
const L = (n: number): number => 7 + n;

const SEARCH = `const found = await call("flights_search", { from: input.from, to: input.to, date: input.date, channel: "api" });`;
const CHEAPEST = `const f = found.flights[0];`;

function hardCoded(line: number, token: string, value: string, tool: string): Problem {
  return {
    rule: "provenance-from-result",
    line: L(line),
    token,
    message: `hard-codes ${value}, which the source run read from ${tool}'s result: take it from that call's result`,
  };
}
function unexplained(line: number, token: string, value: string, where: string): Problem {
  return {
    rule: "provenance-unexplained",
    line: L(line),
    token,
    message: `passes ${value} to ${where}, a value the source run never used`,
  };
}
function warned(line: number, token: string, value: string, where: string, from: "task" | "input"): Problem {
  const source = from === "task" ? "the task text" : "a test input";
  return {
    rule: "provenance-task-value",
    line: L(line),
    token,
    message: `passes ${value} to ${where}, a value of this task (${source}): take it from the tool's input if it changes between tasks`,
  };
}

describe("argument provenance: the two rejections", () => {
  test("an id the source run read from a response is hard-coded, naming the call it came from", () => {
    const report = check([
      SEARCH,
      `return call("flights_book", { flight_id: "F-77", traveller: input.traveller, channel: "api" });`,
    ]);
    assert.deepEqual(report, {
      checked: 3,
      problems: [hardCoded(2, "F-77", "'F-77'", "flights_search")],
      warnings: [],
    });
  });

  test("a number the source run read from a response is hard-coded too", () => {
    const report = check([
      SEARCH,
      CHEAPEST,
      `return call("payments_send", { to: f.account, amount: 412, from: "acct-4410", memo: "x" });`,
    ]);
    assert.deepEqual(report.problems, [
      hardCoded(3, "412", "412", "flights_search"),
      unexplained(3, "x", "'x'", "payments_send.memo"),
    ]);
  });

  test("a literal that appears nowhere in the source run is unexplained", () => {
    const report = check([
      SEARCH,
      CHEAPEST,
      `return call("payments_send", { to: "acct-ATTACKER", amount: f.price, from: "acct-4410" });`,
    ]);
    assert.deepEqual(report, {
      checked: 3,
      problems: [unexplained(3, "acct-ATTACKER", "'acct-ATTACKER'", "payments_send.to")],
      warnings: [warned(3, "acct-4410", "'acct-4410'", "payments_send.from", "task")],
    });
  });

  test("a value the run passed only to another tool is unexplained for this one", () => {
    const report = check([`return call("payments_send", { cabin: "economy-plus" });`]);
    assert.deepEqual(report.problems, [
      unexplained(1, "economy-plus", "'economy-plus'", "payments_send.cabin"),
    ]);
    // "api" was passed to flights_search only, but its response repeats it: a response explains a value.
    assert.deepEqual(check([`return call("payments_send", { channel: "api" });`]).problems, []);
  });

  test("a response that only repeats what the run passed first does not make it hard-coded", () => {
    // flights_search's response echoes channel "api", but the run passed it before it read it.
    assert.deepEqual(check([SEARCH]), { checked: 1, problems: [], warnings: [] });
  });

  test("the arguments of a failed call count as passed by the run", () => {
    const facts: RunFacts = { ...RUN, calls: RUN.calls.filter((c) => c.tool === "payments_send" && !c.ok) };
    assert.deepEqual(check([`return call("payments_send", { memo: "BK-5521" });`], facts), {
      checked: 1,
      problems: [],
      warnings: [],
    });
  });
});

describe("argument provenance: what is accepted", () => {
  test("a constant the source run passed to that tool itself", () => {
    assert.deepEqual(
      check([
        SEARCH,
        CHEAPEST,
        `return call("flights_book", { flight_id: f.id, traveller: input.traveller, channel: "api" });`,
      ]),
      { checked: 2, problems: [], warnings: [] },
    );
  });

  test("values from the task text: strings, short codes as whole words, numbers as whole numbers", () => {
    const report = check([
      `await call("payments_send", { from: "acct-4410", cost_center: "CC-310", max: 600 });`,
      `return call("flights_search", { from: "SFO", to: "JFK", date: "2025-03-01" });`,
    ]);
    // Accepted, with a warning each: a parameter of this task written into the code may not fit another.
    assert.deepEqual(report, {
      checked: 6,
      problems: [],
      warnings: [
        warned(1, "acct-4410", "'acct-4410'", "payments_send.from", "task"),
        warned(1, "CC-310", "'CC-310'", "payments_send.cost_center", "task"),
        warned(1, "600", "600", "payments_send.max", "task"),
        warned(2, "SFO", "'SFO'", "flights_search.from", "task"),
        warned(2, "JFK", "'JFK'", "flights_search.to", "task"),
        warned(2, "2025-03-01", "'2025-03-01'", "flights_search.date", "task"),
      ],
    });
  });

  test("values from the test inputs, even when a response has them as well", () => {
    const facts: RunFacts = { ...RUN, inputs: [{ ...RUN.inputs[0], flight: "F-80" }] };
    const report = check(
      [`return call("flights_book", { loyalty: "LY-88812", flight_id: "F-80", traveller: "Dana Reyes" });`],
      facts,
    );
    assert.deepEqual([report.checked, report.problems], [3, []]);
    assert.deepEqual(report.warnings, [
      warned(1, "LY-88812", "'LY-88812'", "flights_book.loyalty", "input"),
      warned(1, "F-80", "'F-80'", "flights_book.flight_id", "input"),
      warned(1, "Dana Reyes", "'Dana Reyes'", "flights_book.traveller", "task"),
    ]);
  });

  test("a literal joined to the input is a format, not a value, and is not checked", () => {
    const report = check([
      "await call(\"payments_send\", { to: input.account, memo: 'booking ' + input.ref, note: `ref ${input.id} ok` });",
      `return call("flights_book", { flight_id: input.prefix + "-77", traveller: ["Dr", input.name].join(" ") });`,
    ]);
    assert.deepEqual(report, { checked: 0, problems: [], warnings: [] });
  });

  test("booleans, null, the empty string and keys are not values; the tool's name is not an argument", () => {
    const report = check([
      `return call("not_in_the_run", { urgent: true, note: null, memo: "", "F-77": input.a, pick: input.flights["acct-ATTACKER"] });`,
    ]);
    assert.deepEqual(report, { checked: 0, problems: [], warnings: [] });
  });

  test("a call of a local function named call is not a base call", () => {
    const report = check([
      `const local = (call: (n: string, a: object) => unknown) => call("payments_send", { to: "acct-ATTACKER" });`,
      `return local(() => 1);`,
    ]);
    assert.deepEqual(report, { checked: 0, problems: [], warnings: [] });
  });
});

describe("argument provenance: literals followed to the call", () => {
  test("a concatenation of literals is folded and caught", () => {
    const report = check([
      SEARCH,
      CHEAPEST,
      `return call("payments_send", { to: "acct-" + "ATTACKER", amount: f.price });`,
    ]);
    assert.deepEqual(report.problems, [
      unexplained(3, `"acct-" + "ATTACKER"`, "'acct-ATTACKER'", "payments_send.to"),
    ]);
  });

  test("template literals are folded: without expressions, and with literal expressions", () => {
    const report = check([
      'await call("payments_send", { to: `acct-ATTACKER` });',
      'return call("payments_send", { to: `acct-${"ATT" + "ACK"}ER`, amount: `${400 + 12}` });',
    ]);
    assert.deepEqual(report.problems, [
      unexplained(1, "acct-ATTACKER", "'acct-ATTACKER'", "payments_send.to"),
      unexplained(2, '`acct-${"ATT" + "ACK"}ER`', "'acct-ATTACKER'", "payments_send.to"),
      hardCoded(2, "`${400 + 12}`", "'412'", "flights_search"),
    ]);
  });

  test("a const is followed to its literal; the problem points at the literal's line", () => {
    const report = check([
      `const PAYEE = "acct-" + "ATTACKER";`,
      `const FLIGHT = "F-77";`,
      `await call("flights_book", { flight_id: FLIGHT });`,
      `return call("payments_send", { to: PAYEE });`,
    ]);
    assert.deepEqual(report.problems, [
      unexplained(1, `"acct-" + "ATTACKER"`, "'acct-ATTACKER'", "payments_send.to"),
      hardCoded(2, "F-77", "'F-77'", "flights_search"),
    ]);
  });

  test("both arms of a conditional are checked, whichever replay took", () => {
    const report = check([
      SEARCH,
      CHEAPEST,
      `const amount = f.price;`,
      `return call("payments_send", { to: amount > 100 ? "acct-ATTACKER" : f.account, amount });`,
    ]);
    // Two values checked: "api" in the search, and the literal arm; the other arm is a response's value.
    assert.deepEqual(report, {
      checked: 2,
      problems: [unexplained(4, "acct-ATTACKER", "'acct-ATTACKER'", "payments_send.to")],
      warnings: [],
    });
  });

  test("both operands of ||, ?? and && are checked", () => {
    const report = check([
      `return call("payments_send", { to: input.to || "acct-OR", from: input.from ?? "acct-NULLISH", memo: input.ok && "memo-AND" });`,
    ]);
    assert.deepEqual(report.problems, [
      unexplained(1, "acct-OR", "'acct-OR'", "payments_send.to"),
      unexplained(1, "acct-NULLISH", "'acct-NULLISH'", "payments_send.from"),
      unexplained(1, "memo-AND", "'memo-AND'", "payments_send.memo"),
    ]);
  });

  test("a conditional inside a concatenation gives every combination", () => {
    const report = check([`return call("payments_send", { to: "acct-" + (input.vip ? "9921" : "EVIL") });`]);
    const token = `"acct-" + (input.vip ? "9921" : "EVIL")`;
    // One combination is an account the run read from the search, the other one it never saw.
    assert.deepEqual(report, {
      checked: 2,
      problems: [
        hardCoded(1, token, "'acct-9921'", "flights_search"),
        unexplained(1, token, "'acct-EVIL'", "payments_send.to"),
      ],
      warnings: [],
    });
  });

  test("a spread const object contributes its properties", () => {
    const report = check([
      `const DEFAULTS = { channel: "api", to: "acct-ATTACKER" };`,
      `return call("flights_book", { ...DEFAULTS, flight_id: input.id });`,
    ]);
    assert.deepEqual(report, {
      checked: 2,
      problems: [unexplained(1, "acct-ATTACKER", "'acct-ATTACKER'", "flights_book.to")],
      warnings: [],
    });
  });

  test("nested objects and arrays are named by their path", () => {
    const report = check([
      `return call("invoices_create", { lines: [{ sku: "FARE", amount: input.total }, { sku: "FEE-X" }], meta: { "cost center": "CC-999", tags: ["t-1"] } });`,
    ]);
    assert.deepEqual(report.problems, [
      unexplained(1, "FEE-X", "'FEE-X'", "invoices_create.lines[1].sku"),
      unexplained(1, "CC-999", "'CC-999'", 'invoices_create.meta["cost center"]'),
      unexplained(1, "t-1", "'t-1'", "invoices_create.meta.tags[0]"),
    ]);
  });

  test("an arguments object built in a variable, and properties written to it later", () => {
    const report = check([
      `const args = { to: input.to, amount: input.amount };`,
      `if (input.amount > 100) args.to = "acct-LATER";`,
      `const lines = [];`,
      `lines.push({ sku: "PUSHED-1" });`,
      `return call("invoices_create", { lines, extra: args });`,
      `// and the object itself as the arguments`,
    ]);
    assert.deepEqual(report.problems, [
      unexplained(2, "acct-LATER", "'acct-LATER'", "invoices_create.extra.to"),
      unexplained(4, "PUSHED-1", "'PUSHED-1'", "invoices_create.lines[…].sku"),
    ]);
    const direct = check([
      `const args = { to: input.to };`,
      `if (input.amount > 100) args.to = "acct-LATER";`,
      `return call("payments_send", args);`,
    ]);
    assert.deepEqual(direct.problems, [unexplained(2, "acct-LATER", "'acct-LATER'", "payments_send.to")]);
  });

  test("a let variable: every value assigned to it, including one built from itself", () => {
    const report = check([
      `let to = input.to;`,
      `if (input.vip) to = "acct-" + "VIP";`,
      `to = to + "-X";`,
      `return call("payments_send", { to });`,
    ]);
    assert.deepEqual(report.problems, [
      unexplained(2, `"acct-" + "VIP"`, "'acct-VIP'", "payments_send.to"),
      unexplained(3, `to + "-X"`, "'acct-VIP-X'", "payments_send.to"),
    ]);
  });

  test("destructuring, parameter defaults, for…of and array callbacks over literals", () => {
    const report = check([
      `const { a = "def-A", b: [, second] } = { b: [input.x, "sec-B"] };`,
      `for (const id of ["loop-1", input.id]) await call("flights_book", { flight_id: id, a, second });`,
      `await Promise.all(["map-1"].map((m) => call("flights_book", { flight_id: m })));`,
      `const pay = async (to: string, amount = 999) => call("payments_send", { to, amount });`,
      `return pay(input.to);`,
    ]);
    assert.deepEqual(report.problems, [
      unexplained(1, "def-A", "'def-A'", "flights_book.a"),
      unexplained(1, "sec-B", "'sec-B'", "flights_book.second"),
      unexplained(2, "loop-1", "'loop-1'", "flights_book.flight_id"),
      unexplained(3, "map-1", "'map-1'", "flights_book.flight_id"),
      unexplained(4, "999", "999", "payments_send.amount"),
    ]);
  });

  test("local functions, lookups in literal objects and string methods are folded", () => {
    const report = check([
      `function payee() { return "acct-FN"; }`,
      `const ACCOUNTS: Record<string, string> = { gold: "acct-GOLD", std: "acct-9921" };`,
      `await call("payments_send", { to: payee(), alt: ACCOUNTS[input.tier], std: ACCOUNTS.std });`,
      `return call("payments_send", { to: "ACCT-LOWER".toLowerCase(), id: ["F", "77"].join("-"), n: String(412) });`,
    ]);
    assert.deepEqual(report.problems, [
      unexplained(1, "acct-FN", "'acct-FN'", "payments_send.to"),
      unexplained(2, "acct-GOLD", "'acct-GOLD'", "payments_send.alt"),
      hardCoded(2, "acct-9921", "'acct-9921'", "flights_search"),
      unexplained(4, `"ACCT-LOWER".toLowerCase()`, "'acct-lower'", "payments_send.to"),
      hardCoded(4, `["F", "77"].join("-")`, "'F-77'", "flights_search"),
      hardCoded(4, "String(412)", "'412'", "flights_search"),
    ]);
  });

  test("a literal that reaches two calls is checked once per argument; equal problems are reported once", () => {
    const report = check([
      `const FLIGHT = "F-77";`,
      `const PAYEE = "acct-X1";`,
      `await call("flights_book", { flight_id: FLIGHT });`,
      `await call("flights_book", { flight_id: FLIGHT });`,
      `return call("payments_send", { to: PAYEE, memo: PAYEE });`,
    ]);
    assert.deepEqual(report, {
      checked: 4,
      problems: [
        hardCoded(1, "F-77", "'F-77'", "flights_search"),
        unexplained(2, "acct-X1", "'acct-X1'", "payments_send.to"),
        unexplained(2, "acct-X1", "'acct-X1'", "payments_send.memo"),
      ],
      warnings: [],
    });
  });
});

describe("argument provenance: what counts as appearing in the run", () => {
  const facts = (output: unknown, task = "a task"): RunFacts => ({
    task,
    inputs: [],
    calls: [
      { tool: "lookup", args: {}, output, ok: true },
      { tool: "use", args: { v: "given" }, output: null, ok: true },
    ],
  });
  const use = (literal: string) => [`return call("use", { v: ${literal} });`];
  const fromLookup = (token: string, shown: string) => [hardCoded(1, token, shown, "lookup")];

  test("a string of 4 or more characters inside a longer string of a response", () => {
    assert.deepEqual(
      check(use(`"F-77"`), facts({ label: "Skyway F-77 (nonstop)" })).problems,
      fromLookup("F-77", "'F-77'"),
    );
  });

  test("a shorter string only as a whole value in data, or a whole word in the task", () => {
    assert.deepEqual(check(use(`"F7"`), facts({ label: "F77" })).problems, [
      unexplained(1, "F7", "'F7'", "use.v"),
    ]);
    assert.deepEqual(check(use(`"F7"`), facts({ code: "F7" })).problems, fromLookup("F7", "'F7'"));
    assert.deepEqual(check(use(`"EU"`), facts({}, "convert to EUR")).problems, [
      unexplained(1, "EU", "'EU'", "use.v"),
    ]);
    assert.deepEqual(check(use(`"EU"`), facts({}, "ship within the EU.")).problems, []);
  });

  test("numbers: equal number leaves or their decimal text, whole numbers in the task", () => {
    assert.deepEqual(check(use("77"), facts({ n: 77 })).problems, fromLookup("77", "77"));
    assert.deepEqual(check(use("77"), facts({ n: "77" })).problems, fromLookup("77", "77"));
    assert.deepEqual(check(use(`"77"`), facts({ n: 77 })).problems, fromLookup("77", "'77'"));
    assert.deepEqual(check(use("77"), facts({ n: 177 }, "order 1770 or 7.77")).problems, [
      unexplained(1, "77", "77", "use.v"),
    ]);
    assert.deepEqual(check(use("77"), facts({ n: 77 }, "order 77.")).problems, []);
    assert.deepEqual(check(use("-5"), facts({}, "lower it by -5 degrees")).problems, []);
  });

  test("object keys of a response are names, not values", () => {
    assert.deepEqual(check(use(`"F-77"`), facts({ "F-77": { seats: 2 } })).problems, [
      unexplained(1, "F-77", "'F-77'", "use.v"),
    ]);
  });

  test("long values are shown on one line and clipped", () => {
    const long = `${"x".repeat(100)}\\n${"y".repeat(10)}`;
    const report = check(use(`"${long}"`), facts({}));
    assert.equal(report.problems.length, 1);
    assert.equal(
      report.problems[0]?.message,
      `passes '${"x".repeat(79)}…' to use.v, a value the source run never used`,
    );
    assert.equal(report.problems[0]?.token, `${"x".repeat(39)}…`);
  });
});

describe("argument provenance: limits", () => {
  test("too many combinations of literals are reported instead of checked in part", () => {
    const parts = Array.from({ length: 9 }, (_, i) => `(input.b${i} ? "a" : "b")`).join(" + ");
    const report = check([`return call("use", { v: ${parts} });`]);
    assert.equal(report.checked, 0);
    assert.deepEqual(
      report.problems.map((p) => [p.line, p.message]),
      [
        [
          L(1),
          `builds more than ${MAX_ALTERNATIVES} possible values for use.v from literals: simplify it so each value can be checked`,
        ],
      ],
    );
  });

  test("self-reference and cycles end without looping", () => {
    const report = check([
      `const a: any = { self: null };`,
      `a.self = a;`,
      `a.to = "acct-CYCLE";`,
      `const f = (n: number): string => (n > 0 ? f(n - 1) : "acct-REC");`,
      `return call("payments_send", { a, to: f(3) });`,
    ]);
    assert.deepEqual(report.problems, [
      unexplained(3, "acct-CYCLE", "'acct-CYCLE'", "payments_send.a.to"),
      unexplained(4, "acct-REC", "'acct-REC'", "payments_send.to"),
    ]);
  });

  test("a source that does not parse is a DistillError", () => {
    assert.throws(
      () => checkArgumentProvenance("call(", RUN),
      (err: unknown) => err instanceof DistillError && err.code === "PROPOSAL_INVALID",
    );
  });
});

describe("argument provenance: limits are reported, not skipped", () => {
  test("a chain of constants deeper than the check follows", () => {
    const chain = Array.from({ length: MAX_DEPTH + 20 }, (_, i) =>
      i === 0 ? `const a0 = "acct-DEEP";` : `const a${i} = a${i - 1};`,
    );
    const report = check([...chain, `return call("payments_send", { to: a${MAX_DEPTH + 19} });`]);
    assert.equal(report.checked, 0);
    assert.equal(report.problems.length, 1);
    assert.match(
      report.problems[0]?.message ?? "",
      new RegExp(
        `^reaches payments_send\\.to through more than ${MAX_DEPTH} nested steps from its literals: simplify it so each value can be checked$`,
      ),
    );
  });

  test("an object shared so often that its parts multiply past the budget", () => {
    const levels = Array.from({ length: 24 }, (_, i) =>
      i === 0 ? `const o0 = { x: input.a };` : `const o${i} = { a: o${i - 1}, b: o${i - 1} };`,
    );
    const report = check([...levels, `return call("payments_send", { to: o23 });`]);
    assert.deepEqual(report.problems, [
      {
        rule: "provenance-limit",
        line: L(25),
        token: "{ to: o23 }",
        message: `passes more than ${MAX_VISITS} parts to payments_send: simplify it so each value can be checked`,
      },
    ]);
  });
});

describe("argument provenance: small forms", () => {
  test("literal index reads, comma sequences and erasable TypeScript around a literal", () => {
    const report = check([
      `const LIST = ["acct-IDX", input.a];`,
      `return call("payments_send", { a: LIST[0], b: (input.x, "acct-SEQ"), c: ("acct-TS" as string)!, d: "acct-SAT" satisfies string });`,
    ]);
    assert.deepEqual(report.problems, [
      unexplained(1, "acct-IDX", "'acct-IDX'", "payments_send.a"),
      unexplained(2, "acct-SEQ", "'acct-SEQ'", "payments_send.b"),
      unexplained(2, "acct-TS", "'acct-TS'", "payments_send.c"),
      unexplained(2, "acct-SAT", "'acct-SAT'", "payments_send.d"),
    ]);
  });

  test("what JSON sends: a getter's value, and toJSON() in place of the object", () => {
    const report = check([
      `await call("payments_send", { get to() { return "acct-GET"; } });`,
      `await call("payments_send", { toJSON() { return { to: "acct-JSON" }; }, to: input.to });`,
      `return call("payments_send", { memo: { toJSON: () => "memo-JSON" } });`,
    ]);
    assert.deepEqual(report.problems, [
      unexplained(1, "acct-GET", "'acct-GET'", "payments_send.to"),
      unexplained(2, "acct-JSON", "'acct-JSON'", "payments_send.to"),
      unexplained(3, "memo-JSON", "'memo-JSON'", "payments_send.memo"),
    ]);
  });

  test("a method of a literal object is followed whatever its name; Object.freeze changes nothing", () => {
    const report = check([
      `const helpers = { trim: () => "acct-METHOD" };`,
      `const FROZEN = Object.freeze({ to: "acct-FROZEN" });`,
      `return call("payments_send", { to: helpers.trim(), alt: FROZEN.to, all: FROZEN });`,
    ]);
    assert.deepEqual(report.problems, [
      unexplained(1, "acct-METHOD", "'acct-METHOD'", "payments_send.to"),
      unexplained(2, "acct-FROZEN", "'acct-FROZEN'", "payments_send.alt"),
      unexplained(2, "acct-FROZEN", "'acct-FROZEN'", "payments_send.all.to"),
    ]);
  });

  test("a namespace import's call is a base call too", () => {
    const source = `import * as td from "tooldistill";\nexport default td.distilledTool({\n  async run() {\n    return td.call("payments_send", { to: "acct-NS" });\n  },\n});\n`;
    assert.deepEqual(checkArgumentProvenance(source, RUN).problems, [
      {
        rule: "provenance-unexplained",
        line: 4,
        token: "acct-NS",
        message: "passes 'acct-NS' to payments_send.to, a value the source run never used",
      },
    ]);
  });

  test("a value from a response that the task also names is accepted", () => {
    const facts: RunFacts = { ...RUN, task: `${RUN.task}; the agent chose F-77` };
    assert.deepEqual(check([`return call("flights_book", { flight_id: "F-77" });`], facts), {
      checked: 1,
      problems: [],
      warnings: [warned(1, "F-77", "'F-77'", "flights_book.flight_id", "task")],
    });
  });
});

describe("calls to tools that may write: every argument traced", () => {
  const WRITES: RunFacts = { ...RUN, writes: ["flights_book", "payments_send", "invoices_create"] };
  const messages = (lines: string[]) => check(lines, WRITES).problems.map((p) => `${p.line}: ${p.message}`);

  test("a constant counts only at the path the run passed it to that tool", () => {
    // The run passed "api" to flights_book.channel: fine there, not as the traveller.
    assert.deepEqual(
      messages([
        SEARCH,
        CHEAPEST,
        `return call("flights_book", { flight_id: f.id, traveller: input.traveller, channel: "api" });`,
      ]),
      [],
    );
    const moved = messages([
      SEARCH,
      CHEAPEST,
      `return call("flights_book", { flight_id: f.id, traveller: "api" });`,
    ]);
    assert.equal(moved.length, 1);
    assert.match(
      moved[0]!,
      /^10: passes 'api' to flights_book\.traveller, a constant the source run never passed there: a tool that may write takes each argument from its input, an earlier call's result, or a constant the source run passed to flights_book$/,
    );
  });

  test("text built from data must be the run's own format, each hole at least one character", () => {
    // The run paid memo "BK-5521": "BK-" then a hole fits it; "BK-5" then a hole does not (the run's hole is "5521").
    assert.deepEqual(
      messages([
        SEARCH,
        CHEAPEST,
        `return call("payments_send", { to: f.account, amount: f.price, memo: "BK-" + input.ref });`,
      ]),
      [],
    );
    assert.match(
      messages([
        SEARCH,
        CHEAPEST,
        `return call("payments_send", { to: f.account, amount: f.price, memo: \`BK-5521X\${input.ref}\` });`,
      ])[0]!,
      /^10: cannot trace payments_send: its literal text is not the text of a value the source run passed there/,
    );
  });

  test("one step of computation: a constant made from data alone cannot be built on", () => {
    const out = messages([
      SEARCH,
      CHEAPEST,
      `const one = f.price / f.price;`,
      `return call("payments_send", { to: f.account, amount: one + one + one });`,
    ]);
    assert.match(out[0]!, /^11: cannot trace payments_send: text joined with a computed value/);
    // Computed once and sent whole is fine: the amount in cents.
    assert.deepEqual(
      messages([
        SEARCH,
        CHEAPEST,
        `return call("payments_send", { to: f.account, amount: Math.round(f.price) });`,
      ]),
      [],
    );
  });

  test("calls to read-only tools keep the literal rule only", () => {
    // flights_search is not in `writes`: an unfolded computation in its arguments is not traced.
    assert.deepEqual(
      messages([
        `const found = await call("flights_search", { from: String.fromCharCode(83, 70, 79), to: input.to, channel: "api" });`,
        `return found;`,
      ]),
      [],
    );
  });
});
