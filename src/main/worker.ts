/** `npm run start:worker`: the worker role alone (every BullMQ queue and schedule). */
import { startWorkers } from "../jobs/worker.js";
import { jobDefinitions } from "../jobs/registry.js";
import { workerProviders } from "./providers.js";
import { checkProgramVersions, onShutdown } from "./lifecycle.js";

await checkProgramVersions();
const workers = await startWorkers(jobDefinitions(workerProviders()));
onShutdown(workers.close);
