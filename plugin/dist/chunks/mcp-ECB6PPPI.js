import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  projectConfig
} from "./chunk-3U6PJVBL.js";
import {
  output,
  toolsTable
} from "./chunk-BJGB77PC.js";
import {
  EXIT
} from "./chunk-PLXZKH3A.js";
import "./chunk-N74P55HM.js";
import "./chunk-D2GMMLZA.js";
import {
  loadMcpServers
} from "./chunk-I5S26EEK.js";
import "./chunk-VDJMRFMR.js";
import "./chunk-33C2RXKH.js";
import {
  CONFIG_FILE_NAME
} from "./chunk-IHWPCLUK.js";
import "./chunk-J46PTQO6.js";
import "./chunk-3E2GSH4V.js";
import "./chunk-VPKFMVD7.js";
import "./chunk-PLUU42V4.js";
import "./chunk-2PK73LHC.js";
import "./chunk-OKH2WWIC.js";
import "./chunk-HCN7KP44.js";
import "./chunk-3GICA5WK.js";
import {
  MCPToolkit
} from "./chunk-NW7IKZUA.js";
import "./chunk-JZ3MG7G2.js";
import "./chunk-PA5A5OBP.js";
import "./chunk-QNKRPA2X.js";
import {
  splitBaseToolName
} from "./chunk-7GUC6VD2.js";
import "./chunk-DFWB4XA7.js";
import "./chunk-J2PGGSMV.js";
import "./chunk-6YXHXBUL.js";
import "./chunk-AFD4KMO3.js";
import {
  DistillError
} from "./chunk-WEYMVVQ3.js";
import "./chunk-6P6L5GZQ.js";
import "./chunk-WGRAGIMS.js";
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
