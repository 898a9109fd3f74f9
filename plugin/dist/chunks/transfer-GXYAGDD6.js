import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  ioLogger,
  projectConfig
} from "./chunk-7WU6MUDY.js";
import {
  output,
  transferText
} from "./chunk-ZEIOH4VZ.js";
import {
  EXIT
} from "./chunk-Q764J24N.js";
import {
  copyRegistry,
  exportRegistryFile,
  importRegistryFile
} from "./chunk-IYMYVRKQ.js";
import {
  loadConfiguredStore
} from "./chunk-KNTWPZCL.js";
import "./chunk-2CDCRBX2.js";
import "./chunk-Q43EQ4S5.js";
import "./chunk-AKW4E22I.js";
import "./chunk-PA5A5OBP.js";
import "./chunk-C76PIVXH.js";
import "./chunk-LNPORMZP.js";
import "./chunk-DFWB4XA7.js";
import "./chunk-LPVZYSRE.js";
import "./chunk-A6E7RSNK.js";
import "./chunk-UMZBALXE.js";
import "./chunk-QNKRPA2X.js";
import "./chunk-GHTTQKRX.js";
import "./chunk-KWE2AXCZ.js";
import "./chunk-J2PGGSMV.js";
import "./chunk-LMZH4FWR.js";
import "./chunk-AFD4KMO3.js";
import "./chunk-F7FMCNXH.js";
import {
  expandVars
} from "./chunk-PLUU42V4.js";
import "./chunk-ZQYAE2VL.js";
import "./chunk-VH3A3DZF.js";
import {
  DistillError
} from "./chunk-WEYMVVQ3.js";
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
