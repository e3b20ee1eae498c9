/**
 * `npm run start:api`: the API role alone (REST, GraphQL, subscriptions). Tracing starts before the
 * rest of the service is imported (./telemetry.ts says why).
 */
import { startTracing } from "./tracing.ts";

await startTracing("api");
const { startApi } = await import("./server.ts");
const { checkProgramVersions, onShutdown } = await import("./lifecycle.ts");

await checkProgramVersions();
const api = await startApi();
onShutdown(api.drain);
