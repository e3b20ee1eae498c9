/** Inputs of the API-key use cases, shared by REST and GraphQL. */
import { z } from "zod";

const keyName = z
  .string({ message: "name must be a string" })
  .trim()
  .min(1, "name must not be empty")
  .max(255, "name must be at most 255 characters");
export const createKeyInput = z.strictObject({ name: keyName });
