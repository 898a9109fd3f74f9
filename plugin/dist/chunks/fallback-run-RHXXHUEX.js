import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  applySpilledEvents,
  cachedBaseTools,
  sessionOfTrace
<<<<<<<< HEAD:plugin/dist/chunks/fallback-run-RHXXHUEX.js
<<<<<<<< HEAD:plugin/dist/chunks/fallback-run-F3GZW2GP.js
<<<<<<<< HEAD:plugin/dist/chunks/fallback-run-SDOH4O3H.js
} from "./chunk-M3MJNLMG.js";
========
} from "./chunk-6GWRB7RG.js";
>>>>>>>> verify-inputs:plugin/dist/chunks/fallback-run-SGVMWPHP.js
========
} from "./chunk-SRT2IJGE.js";
>>>>>>>> claude-code-new:plugin/dist/chunks/fallback-run-RHXXHUEX.js
========
} from "./chunk-DYI27ZKK.js";
>>>>>>>> verify-bounds:plugin/dist/chunks/fallback-run-TMYLXMSS.js
import {
  ToolDistill,
  appendLog,
  importRef
<<<<<<<< HEAD:plugin/dist/chunks/fallback-run-RHXXHUEX.js
<<<<<<<< HEAD:plugin/dist/chunks/fallback-run-F3GZW2GP.js
<<<<<<<< HEAD:plugin/dist/chunks/fallback-run-SDOH4O3H.js
} from "./chunk-ELNSZQXQ.js";
========
} from "./chunk-P63XULT6.js";
>>>>>>>> claude-code-new:plugin/dist/chunks/fallback-run-RHXXHUEX.js
import "./chunk-N2N6NAZD.js";
import "./chunk-MTNHQDS3.js";
========
} from "./chunk-PCC6D7DA.js";
import "./chunk-3PVCE3ZL.js";
import "./chunk-GJCSP7XP.js";
>>>>>>>> verify-inputs:plugin/dist/chunks/fallback-run-SGVMWPHP.js
========
} from "./chunk-CK4YB6KJ.js";
import "./chunk-N2N6NAZD.js";
import "./chunk-W7TRJ6E2.js";
>>>>>>>> verify-bounds:plugin/dist/chunks/fallback-run-TMYLXMSS.js
import "./chunk-RYYHHNJW.js";
import "./chunk-NV5JO7FK.js";
import "./chunk-C37ZN2VE.js";
import "./chunk-GNLRVJN4.js";
import {
  embeddedStore
<<<<<<<< HEAD:plugin/dist/chunks/fallback-run-F3GZW2GP.js
<<<<<<<< HEAD:plugin/dist/chunks/fallback-run-SDOH4O3H.js
} from "./chunk-HBGP6CBP.js";
import "./chunk-OGWWFJGY.js";
import "./chunk-2SZMPL7T.js";
========
} from "./chunk-Z5VAEU4H.js";
import "./chunk-OGWWFJGY.js";
import "./chunk-TBHEERC5.js";
>>>>>>>> verify-inputs:plugin/dist/chunks/fallback-run-SGVMWPHP.js
========
} from "./chunk-PGWFENER.js";
import "./chunk-OGWWFJGY.js";
import "./chunk-BIWZWU3R.js";
>>>>>>>> claude-code-new:plugin/dist/chunks/fallback-run-RHXXHUEX.js
import "./chunk-J2PGGSMV.js";
import "./chunk-LMZH4FWR.js";
import "./chunk-RYZN5VFB.js";
import "./chunk-3NZE2JVK.js";
import "./chunk-XSOUOFOT.js";
import "./chunk-GWZUS3JX.js";
import "./chunk-WEYMVVQ3.js";
import "./chunk-UTY5CP2H.js";

// hooks/fallback-run.ts
import { join } from "node:path";
async function runFallback(configPath, traceId) {
  const { loadFullConfig } = await import("./full-config.js");
  const { config, baseServers } = await loadFullConfig(configPath, process.env);
  const logFile = join(config.store, "hooks.log");
  const log = (level) => (message) => void appendLog(logFile, `${(/* @__PURE__ */ new Date()).toISOString()} fallback ${level}: ${message}`);
  const logger = { info: log("info"), warn: log("warn"), error: log("error") };
  const distiller = config.distiller ? await importRef(config.distiller) : void 0;
  const td = new ToolDistill({
    ...config.settings,
    store: config.store,
    logger,
    checkSchemasOnStart: false,
    ...distiller ? { distiller } : {}
  });
  try {
    const sqlite = embeddedStore(td.store, "the plugin's fallback distiller");
    const tools = await sqlite.exclusive((store) => {
      applySpilledEvents(store, sessionOfTrace(traceId), baseServers);
      return cachedBaseTools(store);
    });
    td.setTools(tools);
    await (await td.openTrace(traceId)).finish();
  } catch (err) {
    logger.error(err instanceof Error ? err.stack ?? err.message : String(err));
  } finally {
    await td.close();
  }
}
export {
  runFallback
};
