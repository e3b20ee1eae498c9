/**
 * `npm run start:api`: the API role alone (REST, GraphQL, subscriptions). Tracing starts before the
 * rest of the service is imported (./telemetry.ts says why).
 */
// First: it may set DATABASE_URL and REDIS_URL (this checkout's own servers) before src/config.ts reads them.
import { servicesForEntryPoint } from "./local-services.ts";

const services = await servicesForEntryPoint("npm run start:api");
const { startTracing } = await import("./tracing.ts");
await startTracing("api");
const { startApi } = await import("./server.ts");
const { announceServices, checkProgramVersions, onShutdown } = await import("./lifecycle.ts");

announceServices(services);
await checkProgramVersions();
const api = await startApi();
onShutdown(api.drain);
