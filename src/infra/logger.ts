/** Structured JSON logs (pino), one logger for the process; children carry request/job ids. */
import { pino } from "pino";
import { config } from "../config.js";

const options = {
  level: config.logLevel,
  base: { service: "video-service", pid: process.pid },
  redact: { paths: ["req.headers.authorization", "apiKey", "*.apiKey"], censor: "[redacted]" },
  timestamp: pino.stdTimeFunctions.isoTime,
};

// stderr when stdout belongs to a protocol (the MCP stdio server, src/cli/index.ts).
export const logger = config.logDestination === "stderr" ? pino(options, pino.destination(2)) : pino(options);

export type Logger = typeof logger;
