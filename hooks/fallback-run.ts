/** Body of the detached fallback distiller process (see fallback.ts); errors go to the store's hooks.log. */
import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { importRef, loadConfig } from "../core/config.ts";
import type { Distiller } from "../core/distiller.ts";
import { cachedBaseTools } from "../core/session.ts";
import { ToolDistill } from "../core/tool-distill.ts";
import type { Logger } from "../core/types.ts";

/** Runs the fallback distiller for one finished span of a session. */
export async function runFallback(configPath: string, traceId: string): Promise<void> {
  const config = await loadConfig(configPath);
  const logFile = join(config.store, "hooks.log");
  const log = (level: string) => (message: string) =>
    appendFileSync(logFile, `${new Date().toISOString()} fallback ${level}: ${message}\n`);
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
    td.setTools(cachedBaseTools(td.store));
    await td.openTrace(traceId).finish();
  } catch (err) {
    logger.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
  } finally {
    await td.close();
  }
}
