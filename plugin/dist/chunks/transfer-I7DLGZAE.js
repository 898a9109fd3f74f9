import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  ioLogger,
  projectConfig
} from "./chunk-3OFSVOJB.js";
import {
  output,
  transferText
} from "./chunk-UI6PSFEU.js";
import {
  EXIT
} from "./chunk-PLXZKH3A.js";
import {
  copyRegistry,
  exportRegistryFile,
  importRegistryFile
} from "./chunk-6XGZWFWT.js";
import {
  loadConfiguredStore
} from "./chunk-BD5LZ5WU.js";
import "./chunk-I5S26EEK.js";
import "./chunk-VDJMRFMR.js";
import "./chunk-ASUB56OA.js";
import "./chunk-G4NVZV74.js";
import "./chunk-ZJCKCYN7.js";
import "./chunk-UT4SHXKT.js";
import "./chunk-VPKFMVD7.js";
import {
  expandVars
} from "./chunk-PLUU42V4.js";
import "./chunk-RTC3Y7I5.js";
import "./chunk-OKH2WWIC.js";
import "./chunk-HCN7KP44.js";
import "./chunk-LMZH4FWR.js";
import "./chunk-UEVEZT5O.js";
import "./chunk-FCTBTAFV.js";
import "./chunk-PA5A5OBP.js";
import "./chunk-QNKRPA2X.js";
import "./chunk-7GUC6VD2.js";
import "./chunk-DFWB4XA7.js";
import "./chunk-J2PGGSMV.js";
import "./chunk-6YXHXBUL.js";
import "./chunk-AFD4KMO3.js";
import {
  DistillError
} from "./chunk-WEYMVVQ3.js";
import "./chunk-DJFBGJU6.js";
import "./chunk-A6E7RSNK.js";
import "./chunk-UTY5CP2H.js";

// cli/commands/transfer.ts
import { isAbsolute, resolve } from "node:path";
async function using(store, fn) {
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}
async function exportRegistry(ctx) {
  const config = await projectConfig(ctx);
  const file = resolve(ctx.io.cwd, ctx.args.file);
  const store = await loadConfiguredStore(config, { readOnly: true, logger: ioLogger(ctx.io) });
  const header = await using(store, (s) => exportRegistryFile(s, file, { overwrite: ctx.options.force }));
  output(
    ctx,
    { file, ...header },
    () => transferText("exported", header.counts, `${store.location} to ${file}`)
  );
  return EXIT.ok;
}
async function importRegistry(ctx) {
  const config = await projectConfig(ctx);
  const file = resolve(ctx.io.cwd, ctx.args.file);
  const store = await loadConfiguredStore(config, { logger: ioLogger(ctx.io) });
  const { header, counts } = await using(store, (s) => importRegistryFile(s, file));
  output(
    ctx,
    { file, store: store.location, source: header.source, counts },
    () => transferText("imported", counts, `${file} into ${store.location}`)
  );
  return EXIT.ok;
}
async function copy(ctx) {
  const raw = ctx.options.to;
  if (raw === void 0) {
    throw new DistillError(
      "USAGE",
      "copy needs --to <location>: a folder, or postgres://user:password@host:5432/database"
    );
  }
  const missing = [];
  const expanded = expandVars(raw, process.env, (name) => missing.push(name)).trim();
  if (missing.length > 0) {
    throw new DistillError(
      "USAGE",
      `--to uses ${missing.join(", ")}, which ${missing.length === 1 ? "is" : "are"} not set: set ${missing.length === 1 ? "it" : "them"}, or write the location out.`
    );
  }
  const target = /^[a-z][a-z0-9+.-]*:\/\//i.test(expanded) || isAbsolute(expanded) ? expanded : resolve(ctx.io.cwd, expanded);
  const config = await projectConfig(ctx);
  const logger = ioLogger(ctx.io);
  const from = await loadConfiguredStore(config, { readOnly: true, logger });
  let shown = target;
  const counts = await using(from, async (source) => {
    const to = await loadConfiguredStore(config, { logger }, target);
    shown = to.location;
    return using(to, (t) => copyRegistry(source, t));
  });
  output(
    ctx,
    { from: from.location, to: shown, counts },
    () => transferText("copied", counts, `${from.location} to ${shown}`)
  );
  return EXIT.ok;
}
export {
  copy,
  exportRegistry,
  importRegistry
};
