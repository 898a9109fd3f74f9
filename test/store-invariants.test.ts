/**
 * The lifecycle invariants checked when a store opens, on states an interrupted older build (or a hand edit)
 * leaves: the safe repairs happen on a writable open and are logged; the rest are reported with the command that
 * fixes them; a read-only open repairs nothing and says what would.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { SqliteRegistryStore } from "../core/internal.ts";
import type { Logger, Verdict } from "../core/types.ts";
import { tempDir } from "./helpers.ts";

function recorder(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    info: (m) => lines.push(`info: ${m}`),
    warn: (m) => lines.push(`warn: ${m}`),
    error: (m) => lines.push(`error: ${m}`),
  };
}

const verdict = (version: number): Verdict => ({
  name: "make_invoice",
  version,
  status: "active",
  checks: {
    static: { ok: true, problems: [] },
    replay: { ok: true, problems: [] },
    efficiency: { ok: true, problems: [] },
  },
  calls: 2,
  baseline: 4,
  limit: 2.8,
  liveCalls: [],
  evidence: { callSites: null, literals: null, runs: null, writes: [], promotion: null },
});

/** v1 and v2 of make_invoice, moved through `moves` with raw status changes (no lifecycle rules). */
async function seed(root: string, moves: Array<[number, string, string]>, verdicts: number[]): Promise<void> {
  const store = SqliteRegistryStore.open(root, { checkInvariants: false });
  for (const _ of [1, 2]) {
    await store.createVersion({
      name: "make_invoice",
      code: "export default 1;\n",
      description: "d",
      inputSchema: { type: "object" },
      testInputs: [],
      sourceTrace: null,
      reason: "proposed",
    });
  }
  for (const [version, from, to] of moves) {
    const ok = await store.setStatus({
      name: "make_invoice",
      version,
      expect: from as never,
      to: to as never,
      problems: [],
      reason: "seed",
    });
    assert.ok(ok, `seed move v${version} ${from} → ${to}`);
  }
  for (const v of verdicts) await store.setVerification("make_invoice", v, verdict(v), null);
  await store.close();
}

test("two active versions: the one activated last stays, the other is deprecated, in one repair at open", async (t) => {
  const root = tempDir(t);
  // What an older build left when killed between activating v2 and deprecating v1.
  await seed(
    root,
    [
      [1, "draft", "verified"],
      [1, "verified", "active"],
      [2, "draft", "verified"],
      [2, "verified", "active"],
    ],
    [1, 2],
  );
  const ro = recorder();
  const readOnly = SqliteRegistryStore.open(root, { readOnly: true, logger: ro });
  await readOnly.checkOnOpen();
  assert.deepEqual(
    readOnly.lifecycleProblems.map((p) => p.message),
    ["make_invoice has 2 active versions (v1, v2)"],
  );
  assert.deepEqual(ro.lines, [
    "warn: tooldistill: make_invoice has 2 active versions (v1, v2): run `tooldistill doctor --fix`",
  ]);
  assert.equal(
    (await readOnly.getVersion("make_invoice", 1))?.status,
    "active",
    "a read-only open repairs nothing",
  );
  await readOnly.close();

  const log = recorder();
  const store = SqliteRegistryStore.open(root, { logger: log });
  t.after(() => store.close());
  await store.checkOnOpen();
  assert.deepEqual(store.lifecycleProblems, []);
  assert.deepEqual(log.lines, [
    "warn: tooldistill: repaired the store: make_invoice has 2 active versions (v1, v2); v2, which became active last, stays active; v1 deprecated",
  ]);
  assert.deepEqual(
    (await store.listVersions()).map((v) => [v.version, v.status]),
    [
      [1, "deprecated"],
      [2, "active"],
    ],
  );
  assert.match(
    (await store.getHistory("make_invoice", 1)).at(-1)?.reason ?? "",
    /^repaired when the store was opened: v2/,
  );
});

test("an active version without a verdict is reported with the verify command, not guessed at", async (t) => {
  const root = tempDir(t);
  await seed(
    root,
    [
      [2, "draft", "verified"],
      [2, "verified", "active"],
    ],
    [],
  );
  const log = recorder();
  const store = SqliteRegistryStore.open(root, { logger: log });
  t.after(() => store.close());
  await store.checkOnOpen();
  assert.deepEqual(log.lines, [
    "warn: tooldistill: make_invoice v2 is active but has no stored verdict (an interrupted verification): run `tooldistill verify make_invoice --version 2`",
  ]);
  assert.equal(store.lifecycleProblems[0]?.command, "run `tooldistill verify make_invoice --version 2`");
  assert.equal((await store.getVersion("make_invoice", 2))?.status, "active");
});

test("a deprecated version still queued for a rebuild loses the flag at open", async (t) => {
  const root = tempDir(t);
  await seed(
    root,
    [
      [1, "draft", "verified"],
      [1, "verified", "active"],
    ],
    [1],
  );
  {
    const s = SqliteRegistryStore.open(root, { checkInvariants: false });
    await s.setQueuedRebuild("make_invoice", 1, true, "billing_import recovered");
    // Raw SQL through a second handle stands in for an older build that deprecated without clearing the flag.
    const { DatabaseSync } = process.getBuiltinModule("node:sqlite");
    const db = new DatabaseSync(s.dbPath);
    db.exec(
      "UPDATE versions SET status = 'deprecated' WHERE version = 1; INSERT INTO status_history (name, version, from_status, to_status, reason, at) VALUES ('make_invoice', 1, 'active', 'deprecated', 'x', '2026-01-01T00:00:00Z')",
    );
    db.close();
    await s.close();
  }
  const log = recorder();
  const store = SqliteRegistryStore.open(root, { logger: log });
  t.after(() => store.close());
  await store.checkOnOpen();
  assert.equal((await store.getVersion("make_invoice", 1))?.queuedRebuild, false);
  assert.deepEqual(log.lines, [
    "warn: tooldistill: repaired the store: make_invoice v1 is deprecated but still queued for a rebuild; the rebuild queue flag is cleared",
  ]);
});

test("a deprecation through the store clears the rebuild flag in the same write", async (t) => {
  const store = SqliteRegistryStore.open(tempDir(t));
  t.after(() => store.close());
  await store.createVersion({
    name: "make_invoice",
    code: "x",
    description: "d",
    inputSchema: { type: "object" },
    testInputs: [],
    sourceTrace: null,
    reason: "proposed",
  });
  await store.setQueuedRebuild("make_invoice", 1, true, "note");
  await store.setStatus({
    name: "make_invoice",
    version: 1,
    expect: "draft",
    to: "deprecated",
    problems: [],
    reason: "gone",
  });
  const v = await store.getVersion("make_invoice", 1);
  assert.deepEqual([v?.status, v?.queuedRebuild, v?.rebuildNote], ["deprecated", false, null]);
});
