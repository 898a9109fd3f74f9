import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { main } from "../cli/main.ts";
import { tempDir } from "./helpers.ts";

const crm = fileURLToPath(new URL("./fixtures/mcp/crm-server.ts", import.meta.url));

async function cli(cwd: string, ...argv: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, {
    cwd,
    stdout: (s) => {
      stdout += s;
    },
    stderr: (s) => {
      stderr += s;
    },
  });
  return { code, stdout, stderr };
}

test("mcp tools lists every server's tools and reports a server that cannot start", async (t) => {
  const dir = tempDir(t);
  writeFileSync(
    join(dir, ".mcp.json"),
    JSON.stringify({
      mcpServers: {
        crm: { command: process.execPath, args: [crm] },
        broken: { command: join(dir, "no-such-server") },
      },
    }),
  );
  writeFileSync(join(dir, "tooldistill.yaml"), "mcp_config: .mcp.json\n");
  const json = await cli(dir, "mcp", "tools", "--json");
  const parsed = JSON.parse(json.stdout) as {
    tools: { server: string; tool: string; name: string }[];
    failures: { server: string; reason: string }[];
  };
  assert.deepEqual(
    parsed.tools.map((x) => [x.server, x.tool]),
    [
      ["crm", "list_contacts"],
      ["crm", "find_contact"],
      ["crm", "add_note"],
    ],
  );
  assert.equal(parsed.failures.length, 1);
  assert.equal(parsed.failures[0]?.server, "broken");
  assert.match(parsed.failures[0]?.reason ?? "", /ENOENT/);
  assert.equal(json.code, 1, "a server that failed is a problem the exit code shows");

  const human = await cli(dir, "mcp", "tools");
  assert.match(human.stdout, /crm\s+list_contacts\s+read-only\s+List contacts, two per page\./);
  assert.match(human.stdout + human.stderr, /broken.*ENOENT/);
});
