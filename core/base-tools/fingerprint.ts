import { createHash } from "node:crypto";
import type { ToolDef } from "../types.ts";
import { stableStringify } from "../util/canonical.ts";

/**
 * A base tool's fingerprint: a hash of its whole definition (name, description, input schema and, for MCP tools,
 * annotations). Null when the definition cannot be hashed, and null never counts as unchanged.
 */
export function fingerprint(tool: ToolDef | undefined): string | null {
  if (
    !tool ||
    typeof tool.name !== "string" ||
    typeof tool.input_schema !== "object" ||
    tool.input_schema === null
  ) {
    return null;
  }
  try {
    const definition = {
      name: tool.name,
      description: tool.description ?? "",
      input_schema: tool.input_schema,
      annotations: tool.annotations ?? null,
    };
    return createHash("sha256").update(stableStringify(definition)).digest("hex").slice(0, 32);
  } catch {
    return null;
  }
}

/**
 * `fingerprint` remembered per definition object, for one pass over many versions that share base tools (a start-up
 * review hashes each current definition once, not once per version that depends on it). Scoped to that pass: a
 * definition object changed in place later must be hashed again.
 */
export function fingerprintOnce(): (tool: ToolDef | undefined) => string | null {
  const prints = new Map<ToolDef, string | null>();
  return (tool) => {
    if (!tool) return null;
    let print = prints.get(tool);
    if (print === undefined && !prints.has(tool)) {
      print = fingerprint(tool);
      prints.set(tool, print);
    }
    return print ?? null;
  };
}

/** True only when both fingerprints exist and are equal. */
export function sameFingerprint(stored: string | null, current: string | null): boolean {
  return stored !== null && current !== null && stored === current;
}
