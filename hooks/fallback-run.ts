/** Body of the detached fallback distiller process (see fallback.ts); errors go to the store's hooks.log. */
import { dirname, join } from "node:path";
import { cachedBaseTools } from "../claude-code/base-tools.ts";
import { sessionOfTrace } from "../claude-code/session.ts";
import { applySpilledEvents } from "../claude-code/session-events.ts";
import type { Distiller, Logger } from "../core/index.ts";
import { ToolDistill } from "../core/index.ts";
import { appendLog, importRef, localFolder } from "../core/internal.ts";

/** Runs the fallback distiller for one finished span of a session. */
export async function runFallback(configPath: string, traceId: string): Promise<void> {
  const { loadFullConfig } = await import("./full-config.ts");
  const { config, baseServers } = await loadFullConfig(configPath, process.env);
  const logFile = join(config.store, "hooks.log");
  const log = (level: string) => (message: string) =>
    void appendLog(logFile, `${new Date().toISOString()} fallback ${level}: ${message}`);
  const logger: Logger = { info: log("info"), warn: log("warn"), error: log("error") };
  const distiller = config.distiller ? await importRef<Distiller>(config.distiller) : undefined;
  const td = new ToolDistill({
    ...config.settings,
    store: config.store,
    logger,
    checkSchemasOnStart: false,
    ...(distiller ? { distiller } : {}),
  });
  try {
    // Events of the span that hooks spilled while the store was locked belong to the run being distilled.
    const spillRoot = localFolder(config.store, dirname(configPath));
    await applySpilledEvents(td.store, spillRoot, sessionOfTrace(traceId), baseServers);
    td.setTools(await cachedBaseTools(td.store));
    await (await td.openTrace(traceId)).finish();
  } catch (err) {
    logger.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
  } finally {
    await td.close();
  }
}
