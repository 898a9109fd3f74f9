/**
 * Serves an example's fake tools over MCP on stdio, for the claude_code/ projects: the same definitions and the
 * same executor as the SDK runner, so both see one world (and one switch file). stdout carries only the protocol.
 */

import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";
import type { Executor, JsonSchema, ToolDef } from "../../core/index.ts";

/** The JSON Schema subset the fake tools use, as zod (the MCP SDK lists it back as JSON Schema). */
function toZod(schema: JsonSchema): z.ZodType {
  let t: z.ZodType;
  switch (schema["type"]) {
    case "string":
      t = z.string();
      break;
    case "integer":
      t = typeof schema["minimum"] === "number" ? z.number().int().min(schema["minimum"]) : z.number().int();
      break;
    case "number":
      t = z.number();
      break;
    case "boolean":
      t = z.boolean();
      break;
    case "array":
      t = z.array(schema["items"] ? toZod(schema["items"] as JsonSchema) : z.unknown());
      break;
    case "object":
      t = objectToZod(schema);
      break;
    default:
      t = z.unknown();
  }
  if (typeof schema["description"] === "string") t = t.describe(schema["description"]);
  return t;
}

function objectToZod(schema: JsonSchema): z.ZodObject {
  const properties = (schema["properties"] ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema["required"] ?? []) as string[]);
  const shape: Record<string, z.ZodType> = {};
  for (const [key, sub] of Object.entries(properties)) {
    const t = toZod(sub);
    shape[key] = "default" in sub ? t.default(sub["default"] as never) : required.has(key) ? t : t.optional();
  }
  // Open objects keep their extra keys: a hidden filter must reach the executor.
  return schema["additionalProperties"] === true ? z.looseObject(shape) : z.object(shape);
}

/** Starts an MCP server named `name` on stdio with the given tools. */
export async function serveOverMcp(name: string, tools: ToolDef[], executor: Executor): Promise<void> {
  const server = new McpServer({ name, version: "1.0.0" });
  for (const tool of tools) {
    server.registerTool(
      tool.name,
      { description: tool.description, inputSchema: objectToZod(tool.input_schema) },
      async (args: Record<string, unknown>) => {
        try {
          const value = await executor(tool.name, args);
          return { content: [{ type: "text" as const, text: JSON.stringify(value ?? null) }] };
        } catch (err) {
          return {
            content: [{ type: "text" as const, text: err instanceof Error ? err.message : String(err) }],
            isError: true,
          };
        }
      },
    );
  }
  await server.connect(new StdioServerTransport());
}
