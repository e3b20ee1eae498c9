/** Structured JSON logs (pino), one logger for the process; children carry request/job ids. */
import { pino } from "pino";
import { config } from "../config.js";

export const logger = pino({
  level: config.logLevel,
  base: { service: "video-service", pid: process.pid },
  redact: { paths: ["req.headers.authorization", "apiKey", "*.apiKey"], censor: "[redacted]" },
  timestamp: pino.stdTimeFunctions.isoTime,
});

export type Logger = typeof logger;
