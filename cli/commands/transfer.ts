/** `export`, `import` and `copy`: a whole registry to a file, from a file, or into another store. */
import { isAbsolute, resolve } from "node:path";
import { DistillError } from "../../core/index.ts";
import {
  copyRegistry,
  expandVars,
  exportRegistryFile,
  importRegistryFile,
  loadConfiguredStore,
  type RegistryStore,
} from "../../core/internal.ts";
import { type ContextOf, EXIT } from "../commands.ts";
import { output, transferText } from "../format.ts";
import { ioLogger, projectConfig } from "../project.ts";

async function using<T>(store: RegistryStore, fn: (store: RegistryStore) => Promise<T>): Promise<T> {
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

/** Writes the configured store's whole registry to a file. */
export async function exportRegistry(ctx: ContextOf<"export">): Promise<number> {
  const config = await projectConfig(ctx);
  const file = resolve(ctx.io.cwd, ctx.args.file);
  const store = await loadConfiguredStore(config, { readOnly: true, logger: ioLogger(ctx.io) });
  const header = await using(store, (s) => exportRegistryFile(s, file, { overwrite: ctx.options.force }));
  output(ctx, { file, ...header }, () =>
    transferText("exported", header.counts, `${store.location} to ${file}`),
  );
  return EXIT.ok;
}

/** Loads an exported registry into the configured store, which must be empty. */
export async function importRegistry(ctx: ContextOf<"import">): Promise<number> {
  const config = await projectConfig(ctx);
  const file = resolve(ctx.io.cwd, ctx.args.file);
  const store = await loadConfiguredStore(config, { logger: ioLogger(ctx.io) });
  const { header, counts } = await using(store, (s) => importRegistryFile(s, file));
  output(ctx, { file, store: store.location, source: header.source, counts }, () =>
    transferText("imported", counts, `${file} into ${store.location}`),
  );
  return EXIT.ok;
}

/** Copies the configured store into another, empty one. */
export async function copy(ctx: ContextOf<"copy">): Promise<number> {
  const raw = ctx.options.to;
  if (raw === undefined) {
    throw new DistillError(
      "USAGE",
      "copy needs --to <location>: a folder, or postgres://user:password@host:5432/database",
    );
  }
  const missing: string[] = [];
  const expanded = expandVars(raw, process.env, (name) => missing.push(name)).trim();
  if (missing.length > 0) {
    throw new DistillError(
      "USAGE",
      `--to uses ${missing.join(", ")}, which ${missing.length === 1 ? "is" : "are"} not set: set ${missing.length === 1 ? "it" : "them"}, or write the location out.`,
    );
  }
  const target =
    /^[a-z][a-z0-9+.-]*:\/\//i.test(expanded) || isAbsolute(expanded)
      ? expanded
      : resolve(ctx.io.cwd, expanded);
  const config = await projectConfig(ctx);
  const logger = ioLogger(ctx.io);
  const from = await loadConfiguredStore(config, { readOnly: true, logger });
  let shown = target;
  const counts = await using(from, async (source) => {
    const to = await loadConfiguredStore(config, { logger }, target);
    shown = to.location;
    return using(to, (t) => copyRegistry(source, t));
  });
  output(ctx, { from: from.location, to: shown, counts }, () =>
    transferText("copied", counts, `${from.location} to ${shown}`),
  );
  return EXIT.ok;
}
