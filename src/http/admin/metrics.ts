/**
 * GET /metrics: the Prometheus text of src/infra/metrics.ts. When METRICS_TOKEN is set it needs
 * `Authorization: Bearer <METRICS_TOKEN>` (401 `{code, message}` otherwise); mounted outside
 * /api/v1, so API keys and the rate limit do not apply. Not mounted when METRICS=false.
 */
import type { Request, Response } from "express";
import { config } from "../../config.ts";
import { metricsText } from "../../infra/metrics.ts";
import { sameSecret } from "./secrets.ts";
import { bearerSecret } from "../../domain/keys/access.ts";
import { authorizationHeader } from "../request-context.ts";

export async function metricsEndpoint(req: Request, res: Response): Promise<void> {
  const token = config.operations.metricsToken;
  if (token) {
    // The one Authorization grammar of every door (src/domain/keys/access.ts, bearerSecret).
    const given = bearerSecret(authorizationHeader(req));
    if (!given || !sameSecret(given, token)) {
      res.setHeader("WWW-Authenticate", 'Bearer realm="metrics"');
      res.status(401).json({ code: "UNAUTHORIZED", message: "GET /metrics needs `Authorization: Bearer <METRICS_TOKEN>`." });
      return;
    }
  }
  const { contentType, body } = await metricsText();
  res.setHeader("Content-Type", contentType);
  res.setHeader("Cache-Control", "no-store");
  res.send(body);
}
