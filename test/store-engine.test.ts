/**
 * The engine port's pieces that are pure: the PostgreSQL driver's placeholder numbering (the tables write `?` once
 * for both engines) and the dialects' spellings of what differs, run against a real SQLite database.
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { test } from "node:test";
import { numbered, POSTGRES_DIALECT } from "../core/store/postgres/postgres-engine.ts";
import { SQLITE_DIALECT } from "../core/store/sqlite/sqlite-engine.ts";

test("PostgreSQL numbers the tables' placeholders: ? in order, ?N as $N, quoted text and comments kept", () => {
  assert.equal(numbered("SELECT * FROM t WHERE a = ? AND b = ?"), "SELECT * FROM t WHERE a = $1 AND b = $2");
  assert.equal(
    numbered("UPDATE t SET a = ?1, b = ?2 WHERE c = ?1"),
    "UPDATE t SET a = $1, b = $2 WHERE c = $1",
  );
  assert.equal(
    numbered("SELECT '?', \"odd?name\", 'it''s ?' FROM t WHERE a = ?"),
    "SELECT '?', \"odd?name\", 'it''s ?' FROM t WHERE a = $1",
  );
  assert.equal(
    numbered("SELECT a -- is it ?\nFROM t WHERE a = ?"),
    "SELECT a -- is it ?\nFROM t WHERE a = $1",
  );
  assert.equal(numbered("SELECT ?10, ?"), "SELECT $10, $1");
});

test("the dialects' prefix and list tests mean the same on SQLite as on PostgreSQL", () => {
  assert.equal(POSTGRES_DIALECT.startsWith("id", "?1"), "starts_with(id, ?1)");
  assert.equal(POSTGRES_DIALECT.anyOf("id", "?", "bigint"), "id = ANY(CAST(? AS bigint[]))");
  assert.equal(POSTGRES_DIALECT.t.calls, "tooldistill.calls");
  const db = new DatabaseSync(":memory:");
  const starts = db.prepare(`SELECT ${SQLITE_DIALECT.startsWith("?2", "?1")} AS yes`);
  assert.equal(starts.get("ab", "abc")?.["yes"], 1);
  assert.equal(starts.get("ab", "xab")?.["yes"], 0);
  assert.equal(starts.get("é", "éa")?.["yes"], 1);
  assert.equal(starts.get("", "abc")?.["yes"], 1);
  const any = db.prepare(`SELECT ${SQLITE_DIALECT.anyOf("?2", "?1", "text")} AS yes`);
  assert.equal(any.get(JSON.stringify(["ok", "declared"]), "declared")?.["yes"], 1);
  assert.equal(any.get(JSON.stringify(["ok"]), "tool")?.["yes"], 0);
  const now = db.prepare(`SELECT ${SQLITE_DIALECT.now} AS at`).get()?.["at"];
  assert.match(String(now), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/, "the text toISOString() gives");
  db.close();
});
