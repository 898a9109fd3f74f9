import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);

// core/errors.ts
var DistillError = class extends Error {
  code;
  constructor(code, message, options) {
    super(message, options);
    this.name = "DistillError";
    this.code = code;
  }
};
function errorMessage(err) {
  if (err instanceof Error) return err.message;
  if (typeof err === "string") return err;
  try {
    return JSON.stringify(err) ?? String(err);
  } catch {
    return String(err);
  }
}

export {
  DistillError,
  errorMessage
};
