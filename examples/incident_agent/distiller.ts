/** The distiller of this example's tooldistill.yaml: ClaudeDistiller, on the real API or on the scripted model. */
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { demoDistiller } from "../shared/demo-distiller.ts";
import { incidentPolicy } from "./scripted.ts";

/** `distiller: ./distiller.ts#DISTILLER`. */
export const DISTILLER = demoDistiller(dirname(fileURLToPath(import.meta.url)), incidentPolicy);
