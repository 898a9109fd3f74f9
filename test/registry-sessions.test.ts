/**
 * The plugin's session tables through the RegistryStore, the same tests on both engines: Claude Code session
 * spans, spilled hook events claimed exactly once, savepoints inside a transaction, and spill files applied into
 * the registry in order and exactly once, also by two appliers at once and after a crash that left a claimed file.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { DistillError } from "../core/errors.ts";
import type { RegistryData } from "../core/store/registry-store.ts";
import { type SpilledEvent, spillDir, spillEvent } from "../core/store/spill.ts";
import { applySpillsToRegistry } from "../core/store/spill-registry.ts";
import { tempDir } from "./helpers.ts";
import { freshStore, KINDS, openStore } from "./registry-helpers.ts";

const isCode = (code: string, message?: RegExp) => (err: unknown) =>
  err instanceof DistillError && err.code === code && (message === undefined || message.test(err.message));

/** Records each event as a call of trace `log` (its seq is the order applied); "Boom" writes, then fails. */
async function record(event: SpilledEvent, tx: RegistryData): Promise<void> {
  if (event.event === "Boom") {
    await tx.createTrace("boom", "written, then undone", "claude-code");
    throw new Error("this event cannot be applied");
  }
  await tx.createTrace("log", "", "claude-code");
  await tx.appendCall(
    { traceId: "log", tool: event.event, kind: "other", args: {} },
    { output: event.text },
    1,
  );
}

async function applied(store: RegistryData): Promise<string[]> {
  return (await store.getCalls("log")).map((c) => `${c.tool}:${String(c.output)}`);
}

for (const kind of KINDS) {
  describe(`Claude Code sessions on ${kind}`, () => {
    test("a session's span: created once at 1, advanced once by racing callers, confirmed", async (t) => {
      const { store } = await freshStore(t, kind);
      assert.equal(await store.findSessionSpan("s-1"), null);
      assert.deepEqual(await store.sessionSpan("s-1"), { sessionId: "s-1", span: 1, confirmed: false });
      assert.deepEqual(await store.sessionSpan("s-1"), { sessionId: "s-1", span: 1, confirmed: false });
      assert.equal(await store.isEmpty(), false, "a session is registry content");
      await store.markSpanConfirmed("s-1", 1);
      assert.equal((await store.findSessionSpan("s-1"))?.confirmed, true);
      await Promise.all([store.advanceSpan("s-1", 1), store.advanceSpan("s-1", 1)]);
      assert.deepEqual(await store.findSessionSpan("s-1"), { sessionId: "s-1", span: 2, confirmed: false });
      // A confirmation of a span the session has left changes nothing.
      await store.markSpanConfirmed("s-1", 1);
      assert.equal((await store.findSessionSpan("s-1"))?.confirmed, false);
      const inTx = await store.transaction(async (tx) => {
        const span = await tx.sessionSpan("s-2");
        await tx.advanceSpan("s-2", span.span);
        return tx.findSessionSpan("s-2");
      });
      assert.equal(inTx?.span, 2);
    });

    test("a spilled event is claimed once, whichever process claims it", async (t) => {
      const { store, location } = await freshStore(t, kind);
      const other = await openStore(t, location);
      assert.equal(await store.claimSpillEvent("ev-1"), true);
      assert.equal(await store.claimSpillEvent("ev-1"), false);
      const both = await Promise.all([store.claimSpillEvent("ev-2"), other.claimSpillEvent("ev-2")]);
      assert.deepEqual(both.sort(), [false, true]);
      // A claim rolled back with its transaction is no claim.
      await assert.rejects(
        store.transaction(async (tx) => {
          assert.equal(await tx.claimSpillEvent("ev-3"), true);
          throw new Error("the event failed");
        }),
        /the event failed/,
      );
      assert.equal(await other.claimSpillEvent("ev-3"), true);
      await store.pruneSpillApplied(new Date(Date.now() + 60_000).toISOString());
      assert.equal(await store.claimSpillEvent("ev-1"), true, "pruned ids are forgotten");
      assert.equal(await store.isEmpty(), true, "applied-event ids are machinery, not registry content");
    });

    test("a savepoint undoes only its own writes; outside a transaction it is refused", async (t) => {
      const { store } = await freshStore(t, kind);
      await store.transaction(async (tx) => {
        await tx.createTrace("kept", "", "sdk");
        await assert.rejects(
          tx.savepoint(async (step) => {
            await step.createTrace("undone", "", "sdk");
            throw new Error("step failed");
          }),
          /step failed/,
        );
        assert.equal(await tx.savepoint(async (step) => (await step.getTrace("kept"))?.id), "kept");
        await tx.createTrace("after", "", "sdk");
      });
      assert.deepEqual((await store.listTraces()).map((x) => x.id).sort(), ["after", "kept"]);
      await assert.rejects(
        store.savepoint(async () => 1),
        isCode("USAGE", /savepoint\(\) needs an open transaction/),
      );
    });

    test("spill files are applied in order, exactly once, a failing event undone alone", async (t) => {
      const { store } = await freshStore(t, kind);
      const root = tempDir(t);
      spillEvent(root, "sess-a", "PreToolUse", "1");
      spillEvent(root, "sess-a", "Boom", "x");
      spillEvent(root, "sess-a", "PostToolUse", "2");
      spillEvent(root, "sess-b", "UserPromptSubmit", "3");
      const onlyB = await applySpillsToRegistry(store, root, "sess-b", record);
      assert.deepEqual(onlyB, { applied: 1, skipped: 0, failed: [] });
      const report = await applySpillsToRegistry(store, root, null, record);
      assert.equal(report.applied, 2);
      assert.deepEqual(report.failed.length, 1);
      assert.match(report.failed[0]!, /^Boom of .*: this event cannot be applied$/);
      assert.deepEqual(await applied(store), ["UserPromptSubmit:3", "PreToolUse:1", "PostToolUse:2"]);
      assert.equal(await store.getTrace("boom"), null, "the failed event's writes were undone");
      assert.deepEqual(readdirSync(spillDir(root)), [], "applied files are removed");
      assert.deepEqual(await applySpillsToRegistry(store, root, null, record), {
        applied: 0,
        skipped: 0,
        failed: [],
      });
    });

    test("a claimed file left by an applier killed after its commit is not applied twice", async (t) => {
      const { store } = await freshStore(t, kind);
      const root = tempDir(t);
      spillEvent(root, "sess-a", "PreToolUse", "1");
      spillEvent(root, "sess-a", "PostToolUse", "2");
      const text = readFileSync(join(spillDir(root), "sess-a.jsonl"), "utf8");
      await applySpillsToRegistry(store, root, null, record);
      // What a kill -9 between the commit and the file's removal leaves, plus an event spilled after it.
      writeFileSync(join(spillDir(root), `sess-a.${"1".padStart(15, "0")}-1.claimed`), text);
      spillEvent(root, "sess-a", "Stop", "3");
      assert.deepEqual(await applySpillsToRegistry(store, root, null, record), {
        applied: 1,
        skipped: 2,
        failed: [],
      });
      assert.deepEqual(await applied(store), ["PreToolUse:1", "PostToolUse:2", "Stop:3"]);
    });

    test("two processes applying one spill folder at once apply each event once, in order", async (t) => {
      const { store, location } = await freshStore(t, kind);
      const other = await openStore(t, location);
      const root = tempDir(t);
      const expected: string[] = [];
      for (let i = 0; i < 40; i++) {
        spillEvent(root, `sess-${i % 3}`, "PreToolUse", String(i));
      }
      for (const s of [0, 1, 2]) {
        for (let i = s; i < 40; i += 3) expected.push(`PreToolUse:${i}`);
      }
      const reports = await Promise.all([
        applySpillsToRegistry(store, root, null, record),
        applySpillsToRegistry(other, root, null, record),
      ]);
      assert.equal(reports[0]!.applied + reports[1]!.applied, 40);
      const got = await applied(store);
      assert.equal(got.length, 40);
      // Within a session, the order written; sessions are applied one after another.
      for (const s of [0, 1, 2]) {
        const mine = got.filter((x) => Number(x.split(":")[1]) % 3 === s);
        assert.deepEqual(
          mine,
          expected.filter((x) => Number(x.split(":")[1]) % 3 === s),
        );
      }
    });
  });
}
