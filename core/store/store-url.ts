/**
 * The `store:` setting as a location: a folder, or a `postgres://` (`postgresql://`) URL read and checked, and
 * shown in messages without its password. Engine-neutral and free of `pg`, so the config, the CLI and the
 * SQLite open can tell a URL from a folder without touching the PostgreSQL engine (store/postgres/).
 */
import { DistillError } from "../errors.ts";

/** True when the `store:` setting names a PostgreSQL database rather than a folder. */
export function isPostgresUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location.trim());
}

/**
 * Refuses a PostgreSQL URL where only the embedded SQLite store can be opened (a folder path is expected), so a
 * URL never becomes a folder named `postgres:` and its password never appears in a path.
 */
export function refusePostgresUrl(location: string, what: string): void {
  if (!isPostgresUrl(location)) return;
  let shown: string;
  try {
    shown = parseStoreUrl(location).display;
  } catch {
    shown = redactRaw(location.trim());
  }
  throw new DistillError(
    "USAGE",
    `${what} needs the embedded SQLite store (a folder), and store: names the PostgreSQL database ${shown}: point store: at a folder for this, or move the registry with \`tooldistill export\`/\`import\`.`,
  );
}

/** A `store:` URL, checked, and how messages show it (without its password). */
export interface StoreUrl {
  connectionString: string;
  display: string;
}

const EXAMPLE = "postgres://user:password@host:5432/database";

/** Reads a `postgres://` URL; a malformed one is CONFIG_INVALID, naming the setting and the form it needs. */
export function parseStoreUrl(location: string): StoreUrl {
  const raw = location.trim();
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new DistillError(
      "CONFIG_INVALID",
      `store: in tooldistill.yaml is not a valid PostgreSQL URL (${redactRaw(raw)}): write it as ${EXAMPLE}, with special characters of the user or password percent-encoded (@ as %40, : as %3A, / as %2F, # as %23).`,
    );
  }
  const socketHost = url.searchParams.get("host");
  if (url.hostname === "" && !socketHost) {
    throw new DistillError(
      "CONFIG_INVALID",
      `store: in tooldistill.yaml names no server (${redact(url)}): write it as ${EXAMPLE} (or ?host=/path/to/socket/dir for a Unix socket).`,
    );
  }
  return { connectionString: raw, display: redact(url) };
}

/** The URL as messages show it: the password replaced, in the userinfo and in a `password` parameter. */
function redact(url: URL): string {
  const copy = new URL(url.href);
  if (copy.password) copy.password = "***";
  if (copy.searchParams.has("password")) copy.searchParams.set("password", "***");
  return copy.href;
}

/** A URL the URL parser refused, with anything that looks like a password hidden. */
function redactRaw(raw: string): string {
  return raw.replace(/^(postgres(?:ql)?:\/\/[^:/@]*:)[^@]*@/i, "$1***@");
}
