import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  projectConfig
} from "./chunk-ZTKOGAON.js";
import {
  output,
  toolsTable
} from "./chunk-SDNSSE42.js";
import {
  EXIT
} from "./chunk-JFCIHAGY.js";
import {
  CONFIG_FILE_NAME
} from "./chunk-66WDDRXQ.js";
import {
  MCPToolkit
} from "./chunk-ZTOAOY7G.js";
import "./chunk-PKRKCUPB.js";
import "./chunk-RYYHHNJW.js";
import "./chunk-NV5JO7FK.js";
import "./chunk-C37ZN2VE.js";
import "./chunk-GNLRVJN4.js";
import "./chunk-UAOKGEVO.js";
import "./chunk-OGWWFJGY.js";
import "./chunk-MOQGWUYL.js";
import "./chunk-J2PGGSMV.js";
import "./chunk-LMZH4FWR.js";
import "./chunk-RYZN5VFB.js";
import {
  loadMcpServers
} from "./chunk-7JG2XOTS.js";
import "./chunk-XLRDCVB2.js";
import {
  splitBaseToolName
} from "./chunk-XSOUOFOT.js";
import {
  DistillError
} from "./chunk-WEYMVVQ3.js";
import "./chunk-UTY5CP2H.js";

// cli/commands/mcp.ts
import { dirname } from "node:path";
async function mcpTools(ctx) {
  const config = await projectConfig(ctx);
  if (config.mcpConfig === null && Object.keys(config.mcpServers).length === 0) {
    throw new DistillError(
      "CONFIG_INVALID",
      `${config.path ?? CONFIG_FILE_NAME}: no MCP servers configured; set mcp_config or mcpServers`
    );
  }
  const servers = await loadMcpServers({ mcpConfigPath: config.mcpConfig, inline: config.mcpServers });
  const cwd = config.path === null ? config.dir : dirname(config.path);
  const toolkit = await MCPToolkit.connect({ servers, cwd });
  try {
    const listed = toolkit.tools.map(
      (def) => ({ ...splitBaseToolName(def.name) ?? { server: "", tool: def.name }, def })
    );
    const failures = toolkit.failures;
    const tools = listed.map(({ server, tool, def }) => ({
      server,
      tool,
      name: def.name,
      description: def.description,
      annotations: def.annotations ?? null,
      input_schema: def.input_schema
    }));
    output(ctx, { tools, failures }, () => toolsTable(listed));
    if (!ctx.json) {
      for (const f of failures) {
        ctx.io.stderr(`tooldistill: MCP server '${f.server}' is unavailable: ${f.reason}
`);
      }
    }
    return failures.length > 0 ? EXIT.error : EXIT.ok;
  } finally {
    await toolkit.close();
  }
}
export {
  mcpTools
};
