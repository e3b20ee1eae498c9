/**
 * GET /metrics: the Prometheus text of src/infra/metrics.ts. When METRICS_TOKEN is set it needs
 * `Authorization: Bearer <METRICS_TOKEN>` (401 `{code, message}` otherwise); mounted outside
 * /api/v1, so API keys and the rate limit do not apply. Not mounted when METRICS=false.
 */
import type { Request, Response } from "express";
import { config } from "../../config.js";
import { metricsText } from "../../infra/metrics.js";
import { sameSecret } from "./secrets.js";

export async function metricsEndpoint(req: Request, res: Response): Promise<void> {
  const token = config.operations.metricsToken;
  if (token) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(req.get("authorization") ?? "");
    if (!m || !sameSecret(m[1]!, token)) {
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
