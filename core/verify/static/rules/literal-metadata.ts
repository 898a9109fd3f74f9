/** Rule `literal-metadata`: the tool's name and description are string literals, the description not blank. */
import type { StaticRule } from "../types.ts";

const messages = {
  stringLiteral: "'{{key}}' must be a string literal so it can be read without running the tool",
  emptyDescription: "'description' must not be empty: say what the tool does",
} as const;

/** The name and description become the tool's metadata, read without running it; an agent chooses by them. */
export const literalMetadata: StaticRule<keyof typeof messages> = {
  id: "literal-metadata",
  description:
    "name and description are string literals, so they can be read without running the tool; the description is not blank",
  messages,
  config(state, config) {
    const name = config.properties.get("name");
    if (name !== undefined && config.name === null) {
      state.report(literalMetadata, "stringLiteral", name, "name", { key: "name" });
    }
    const description = config.properties.get("description");
    if (description === undefined) return;
    if (config.description === null) {
      state.report(literalMetadata, "stringLiteral", description, "description", { key: "description" });
    } else if (config.description.trim() === "") {
      state.report(literalMetadata, "emptyDescription", description, "description");
    }
  },
};
