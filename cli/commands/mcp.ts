/** `mcp tools`: the base tools the configured MCP servers expose, as the library names them. */
import { dirname } from "node:path";
import { DistillError, MCPToolkit } from "../../core/index.ts";
import { CONFIG_FILE_NAME, loadMcpServers, splitBaseToolName } from "../../core/internal.ts";
import { type ContextOf, EXIT } from "../commands.ts";
import { type ListedTool, output, toolsTable } from "../format.ts";
import { projectConfig } from "../project.ts";

/** Connects to every configured server and lists its tools; exits 1 when a server cannot be reached. */
export async function mcpTools(ctx: ContextOf<"mcp tools">): Promise<number> {
  const config = await projectConfig(ctx);
  if (config.mcpConfig === null && Object.keys(config.mcpServers).length === 0) {
    throw new DistillError(
      "CONFIG_INVALID",
      `${config.path ?? CONFIG_FILE_NAME}: no MCP servers configured; set mcp_config or mcpServers`,
    );
  }
  const servers = await loadMcpServers({ mcpConfigPath: config.mcpConfig, inline: config.mcpServers });
  const cwd = config.path === null ? config.dir : dirname(config.path);
  // No logger: every connection failure is reported once, below, with its reason.
  const toolkit = await MCPToolkit.connect({ servers, cwd });
  try {
    // The toolkit names every tool <server>__<tool>; a tool whose own name is empty has no tool part to show.
    const listed = toolkit.tools.map(
      (def): ListedTool => ({ ...(splitBaseToolName(def.name) ?? { server: "", tool: def.name }), def }),
    );
    const failures = toolkit.failures;
    const tools = listed.map(({ server, tool, def }) => ({
      server,
      tool,
      name: def.name,
      description: def.description,
      annotations: def.annotations ?? null,
      input_schema: def.input_schema,
    }));
    output(ctx, { tools, failures }, () => toolsTable(listed));
    if (!ctx.json) {
      for (const f of failures) {
        ctx.io.stderr(`tooldistill: MCP server '${f.server}' is unavailable: ${f.reason}\n`);
      }
    }
    return failures.length > 0 ? EXIT.error : EXIT.ok;
  } finally {
    await toolkit.close();
  }
}
