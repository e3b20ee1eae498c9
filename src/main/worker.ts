/**
 * `npm run start:worker`: the worker role alone (every BullMQ queue and schedule). Tracing starts
 * before the rest of the service is imported (./telemetry.ts says why).
 */
import { startTracing } from "./tracing.js";

await startTracing("worker");
const { startWorkers } = await import("../jobs/worker.js");
const { jobDefinitions } = await import("../jobs/registry.js");
const { workerProviders } = await import("./providers.js");
const { checkProgramVersions, onShutdown } = await import("./lifecycle.js");

await checkProgramVersions();
const workers = await startWorkers(jobDefinitions(workerProviders()));
onShutdown(workers.close);
