/** `npm run start:api`: the API role alone (REST, GraphQL, subscriptions). */
import { startApi } from "./server.js";
import { logProgramVersions, onShutdown } from "./lifecycle.js";

logProgramVersions();
const api = await startApi();
onShutdown(api.drain);
