/** `npm run start:api`: the API role alone (REST, GraphQL, subscriptions). */
import { startApi } from "./server.js";
import { checkProgramVersions, onShutdown } from "./lifecycle.js";

await checkProgramVersions();
const api = await startApi();
onShutdown(api.drain);
