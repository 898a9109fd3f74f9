import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  projectConfig
} from "./chunk-7WU6MUDY.js";
import {
  output,
  toolsTable
} from "./chunk-ZEIOH4VZ.js";
import {
  EXIT
} from "./chunk-Q764J24N.js";
import "./chunk-IYMYVRKQ.js";
import "./chunk-KNTWPZCL.js";
import "./chunk-2CDCRBX2.js";
import {
  CONFIG_FILE_NAME
} from "./chunk-Q43EQ4S5.js";
import {
  MCPToolkit
} from "./chunk-AKW4E22I.js";
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
import {
  loadMcpServers
} from "./chunk-F7FMCNXH.js";
import "./chunk-PLUU42V4.js";
import {
  splitBaseToolName
} from "./chunk-ZQYAE2VL.js";
import "./chunk-VH3A3DZF.js";
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
