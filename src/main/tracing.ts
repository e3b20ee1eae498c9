/**
 * The gate in front of ./telemetry.ts: with the OTEL_* variables unset (`config.tracing` false) nothing of
 * OpenTelemetry's SDK or instrumentations is loaded, and the service runs as it would without them.
 * Each entry point calls `startTracing` first and imports the rest of the service afterwards
 * (./telemetry.ts says why).
 */
import { config } from "../config.ts";
import type { Role } from "./telemetry.ts";

let shutdown: (() => Promise<void>) | null = null;

export async function startTracing(role: Role): Promise<void> {
  if (!config.tracing || shutdown) return;
  const { startTelemetry } = await import("./telemetry.ts");
  shutdown = await startTelemetry(role);
}

/** Exports the spans still buffered (at shutdown, after everything else closed); nothing when tracing is off. */
export async function stopTracing(): Promise<void> {
  const stop = shutdown;
  shutdown = null;
  await stop?.();
}
