/** Inputs of the analytics use cases, shared by REST and GraphQL. */
import { z } from "zod";
import { pageLimit } from "../shared/inputs.ts";

export const GROWTH_PERIODS = ["7d", "30d", "90d", "all"] as const;

export const growthQuery = z.object({
  period: z
    .enum(GROWTH_PERIODS, { message: "period must be one of 7d, 30d, 90d, all" })
    .default("30d")
    .meta({ description: "7d, 30d, 90d or all (default 30d)." }),
});

export const topVideosQuery = z.object({ limit: pageLimit(10) });
