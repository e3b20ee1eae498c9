/** `npm run start:api`: the API role alone (REST, GraphQL, subscriptions). */
import { startApi } from "./server.js";
import { onShutdown } from "./lifecycle.js";

const api = await startApi();
onShutdown(api.close);
