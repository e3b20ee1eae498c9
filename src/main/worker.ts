/**
 * `npm run start:worker`: the worker role alone (every BullMQ queue and schedule). Tracing starts
 * before the rest of the service is imported (./telemetry.ts says why).
 */
import { startTracing } from "./tracing.ts";

await startTracing("worker");
const { startWorkers } = await import("../jobs/worker.ts");
const { jobDefinitions } = await import("../jobs/registry.ts");
const { workerProviders } = await import("./providers.ts");
const { checkProgramVersions, onShutdown } = await import("./lifecycle.ts");

await checkProgramVersions();
const workers = await startWorkers(jobDefinitions(workerProviders()));
onShutdown(workers.close);
