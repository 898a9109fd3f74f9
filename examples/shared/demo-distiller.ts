/**
 * The distiller the examples configure (`distiller: ./distiller.ts#DISTILLER`): the library's ClaudeDistiller,
 * pointed at the real API when ANTHROPIC_API_KEY is set, else at the example's scripted model on 127.0.0.1, so
 * `tooldistill rebuild` works offline too. The CLI does not read `.env`: export the key to use a real model.
 */

import { join } from "node:path";
import {
  ClaudeDistiller,
  type Distiller,
  type DistillRequest,
  loadConfig,
  type Proposal,
  type VerifyFn,
} from "../../core/index.ts";
import { SCRIPTED_ENV } from "./runner-kit.ts";
import { type ScriptPolicy, startScriptedModel } from "./scripted-model.ts";

/** A distiller that is ClaudeDistiller either way; only where it sends its requests differs. */
export function demoDistiller(exampleDir: string, policy: ScriptPolicy): Distiller {
  return {
    async distill(request: DistillRequest, verify?: VerifyFn): Promise<Proposal | null> {
      const { settings } = await loadConfig(join(exampleDir, "tooldistill.yaml"));
      const model = settings.distillerModel;
      if (process.env["ANTHROPIC_API_KEY"] && !process.env[SCRIPTED_ENV]) {
        return new ClaudeDistiller({ model }).distill(request, verify);
      }
      const server = await startScriptedModel(policy);
      process.stderr.write(`distiller: scripted model at ${server.url} (offline stand-in for ${model})\n`);
      try {
        return await new ClaudeDistiller({
          model,
          apiKey: "scripted",
          baseURL: server.url,
          maxRetries: 0,
        }).distill(request, verify);
      } finally {
        await server.close();
      }
    },
  };
}
