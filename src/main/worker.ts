/**
 * `npm run start:worker`: the worker role alone (every BullMQ queue and schedule). Tracing starts
 * before the rest of the service is imported (./telemetry.ts says why).
 */
// First: it may set DATABASE_URL and REDIS_URL (this checkout's own servers) before src/config.ts reads them.
import { servicesForEntryPoint } from "./local-services.ts";

const services = await servicesForEntryPoint("npm run start:worker");
const { startTracing } = await import("./tracing.ts");
await startTracing("worker");
const { startWorkers } = await import("../jobs/worker.ts");
const { jobDefinitions } = await import("../jobs/registry.ts");
const { workerProviders } = await import("./providers.ts");
const { announceServices, checkProgramVersions, onShutdown } = await import("./lifecycle.ts");

announceServices(services);
await checkProgramVersions();
const workers = await startWorkers(jobDefinitions(workerProviders()));
onShutdown(workers.close);
