import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  projectConfig
} from "./chunk-BTWLJ23G.js";
import {
  output,
  toolsTable
} from "./chunk-XI77YA5Y.js";
import {
  EXIT
} from "./chunk-3CDQHHHB.js";
import "./chunk-QYIALDTZ.js";
import "./chunk-6TYRKRPH.js";
import "./chunk-3Y2YTLYP.js";
import {
  CONFIG_FILE_NAME
} from "./chunk-HBRSV4NN.js";
import {
  MCPToolkit
} from "./chunk-Q5FRN7I7.js";
import "./chunk-QMZU5RRW.js";
import "./chunk-POCT4HZ6.js";
import "./chunk-O4NDKIK6.js";
import "./chunk-RYYHHNJW.js";
import "./chunk-LPVZYSRE.js";
import "./chunk-A6E7RSNK.js";
import "./chunk-IR76D6NA.js";
import "./chunk-OGWWFJGY.js";
import "./chunk-27JIJYWJ.js";
import "./chunk-EPNEU7NH.js";
import "./chunk-J2PGGSMV.js";
import "./chunk-LMZH4FWR.js";
import "./chunk-GLB7ED25.js";
import {
  loadMcpServers
} from "./chunk-UNPHGQIK.js";
import "./chunk-XNNFATCV.js";
import {
  splitBaseToolName
} from "./chunk-DB4N7OMT.js";
import "./chunk-RHGQ5VNB.js";
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
