/** `npm run start:worker`: the worker role alone (every BullMQ queue and schedule). */
import { startWorkers } from "../jobs/worker.js";
import { onShutdown } from "./lifecycle.js";

const workers = await startWorkers();
onShutdown(workers.close);
