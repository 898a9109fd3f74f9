/**
 * What a ToolDistill does once it is constructed (its `ready()`): the store's lifecycle check, following the
 * change feed, reading the exposed set, and the start-up review of base tool definitions with the
 * re-verifications it asks for. Kept apart from the class: it runs once, and only the constructor starts it.
 */
import { reverify, reviewDefinitions } from "../base-tools/tool-changes.ts";
import type { ChangeReport } from "../base-tools/types.ts";
import { errorMessage } from "../errors.ts";
import type { ExposureCache, StartupLook } from "../lifecycle/exposure-cache.ts";
import type { RegistryStore } from "../store/registry-store.ts";
import { SqliteRegistryStore } from "../store/sqlite/sqlite-registry-store.ts";
import type { Logger } from "../types.ts";
import type { DistillContext } from "./context.ts";

/** What the start-up works on: the ToolDistill's store, context and exposed set, and where its report goes. */
export interface StartUp {
  store: RegistryStore;
  ctx: DistillContext;
  exposure: ExposureCache;
  /** The review's report (null: no review, `check_schemas_on_start` off or no tools given). */
  report: ChangeReport | null;
  logger: Logger;
  /** What the constructor's seed read and judged (SQLite), which the review takes instead of judging it again. */
  look: StartupLook;
}

/** Follows the change feed, reads the exposed set, and runs the start-up review. Never rejects. */
export async function startUp({ store, ctx, exposure, report, logger, look }: StartUp): Promise<void> {
  let refreshed = false;
  try {
    // The store's lifecycle check (once per handle) repairs what an interrupted command left before anything
    // reads the exposed set again.
    if (store instanceof SqliteRegistryStore) await store.checkOnOpen();
    // Following first: a change committed while the set is read is heard, not lost.
    await exposure.follow();
    // The seed (SQLite) read the set a moment ago and leaves out what the review may demote: it stands until
    // the review's own re-read below. Without a seed, or without a review, the set is read now.
    if (!report || look.snapshot === undefined) {
      await exposure.refresh();
      refreshed = true;
    }
    if (!report) return;
    // What the seed read and judged a moment ago is not read and judged again.
    const review = await reviewDefinitions(ctx, look);
    report.changes.push(...review.report.changes);
    report.messages.push(...review.report.messages);
    await reverify(ctx, review.jobs);
    // Versions left out while the review ran come back when it found nothing to do.
    await exposure.refresh();
    refreshed = true;
    for (const c of report.changes) {
      const change = c.from === c.to ? `stays ${c.to}` : `${c.from} → ${c.to}`;
      logger.warn(`tooldistill: at start-up, ${c.name} v${c.version} ${change}: ${c.reason}`);
    }
  } catch (err) {
    logger.error(`tooldistill: the start-up review could not run: ${errorMessage(err)}`);
  } finally {
    // A start that failed part-way still reads the set once (a read that fails is warned, never thrown).
    if (!refreshed) await exposure.refresh();
  }
}
