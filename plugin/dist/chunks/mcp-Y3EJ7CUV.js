import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  projectConfig
} from "./chunk-3OFSVOJB.js";
import {
  output,
  toolsTable
} from "./chunk-UI6PSFEU.js";
import {
  EXIT
} from "./chunk-PLXZKH3A.js";
import "./chunk-6XGZWFWT.js";
import "./chunk-BD5LZ5WU.js";
import {
  loadMcpServers
} from "./chunk-I5S26EEK.js";
import "./chunk-VDJMRFMR.js";
import "./chunk-ASUB56OA.js";
import {
  CONFIG_FILE_NAME
} from "./chunk-G4NVZV74.js";
import "./chunk-ZJCKCYN7.js";
import "./chunk-UT4SHXKT.js";
import "./chunk-VPKFMVD7.js";
import "./chunk-PLUU42V4.js";
import "./chunk-RTC3Y7I5.js";
import "./chunk-OKH2WWIC.js";
import "./chunk-HCN7KP44.js";
import "./chunk-LMZH4FWR.js";
import {
  MCPToolkit
} from "./chunk-UEVEZT5O.js";
import "./chunk-FCTBTAFV.js";
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
import "./chunk-DJFBGJU6.js";
import "./chunk-A6E7RSNK.js";
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
