/** The invoice demo's fake tools over MCP (stdio): started by Claude Code from .mcp.json in this folder. */
import { serveOverMcp } from "../../shared/mcp-serve.ts";
import { executeTool, TOOLS } from "../tools.ts";

await serveOverMcp("invoice", TOOLS, executeTool);
