/** Inputs of the analysis use cases, shared by REST, GraphQL and MCP. */
import { z } from "zod";
import { uuid } from "../shared/inputs.ts";
import { MAX_STORED_KEYFRAMES } from "./visual/part.ts";

export const analyzeOptions = z.object({
  force: z
    .boolean({ message: "force must be true or false" })
    .default(false)
    .meta({ description: "true: delete the previous result and analyse again (default false)." }),
});

/** One keyframe of an analysis (its thumbnail): the analysis's UUID and the keyframe's index in its visual part. */
export const keyframeRef = z.object({
  analysisId: uuid,
  index: z
    .number({ message: "index must be a whole number" })
    .int({ message: "index must be a whole number" })
    .min(0, { message: "index must be at least 0" })
    .max(MAX_STORED_KEYFRAMES - 1, {
      message: `index must be at most ${MAX_STORED_KEYFRAMES - 1} (an analysis keeps at most ${MAX_STORED_KEYFRAMES} keyframes)`,
    })
    .meta({ description: "The keyframe's position in the analysis's `visual.keyframes` (0-based)." }),
});
