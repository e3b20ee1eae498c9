/** Inputs of the analysis use cases, shared by REST and GraphQL. */
import { z } from "zod";

export const analyzeOptions = z.object({
  force: z.boolean({ message: "force must be true or false" }).default(false).meta({ description: "true: delete the previous result and analyse again (default false)." }),
});
