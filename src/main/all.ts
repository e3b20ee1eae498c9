/**
 * `npm start`: applies migrations, creates a demo workspace on an empty database (printing its key
 * once, and a one-time link for its owner to set a password and sign in to the dashboard), then
 * runs the API and the workers in one process. Without DATABASE_URL and REDIS_URL, it uses the servers at the
 * default addresses, or starts this checkout's own (./local-services.ts). Tracing starts before the rest of the
 * service is imported (./telemetry.ts says why). In development, without WEBHOOK_SECRET_KEY, a key kept in a
 * local git-ignored file (./webhook-key.ts).
 */
// First: they may set WEBHOOK_SECRET_KEY, DATABASE_URL and REDIS_URL before src/config.ts reads the environment.
import { localWebhookKey } from "./webhook-key.ts";
import { servicesForEntryPoint } from "./local-services.ts";

const services = await servicesForEntryPoint("npm start");
const { config } = await import("../config.ts");
const { startTracing } = await import("./tracing.ts");
await startTracing("all");
const { logger } = await import("../infra/logger.ts");
const { ensureDemoWorkspace } = await import("../domain/workspace/service.ts");
const { createDemoOwner } = await import("../domain/people/users.ts");
const { startWorkers } = await import("../jobs/worker.ts");
const { jobDefinitions } = await import("../jobs/registry.ts");
const { workerProviders } = await import("./providers.ts");
const { announceServices, applyMigrations, checkProgramVersions, onShutdown } = await import("./lifecycle.ts");
const { startApi } = await import("./server.ts");

announceServices(services);
if (localWebhookKey) {
  logger.warn(
    { file: localWebhookKey.file },
    `WEBHOOK_SECRET_KEY is not set: ${localWebhookKey.generated ? "generated a key into" : "using the key kept in"} ${localWebhookKey.file} ` +
      "(development only; keep the file to keep existing webhooks working; production requires the variable)",
  );
}
await checkProgramVersions();
await applyMigrations();
if (config.seedDemo) {
  const demo = await ensureDemoWorkspace();
  if (demo) {
    // Printed once, on stdout, so an operator can copy them; neither is stored anywhere in clear.
    const owner = await createDemoOwner(demo.workspaceId);
    console.log(
      `\nDemo workspace created: ${demo.workspaceId}\nAPI key (shown once): ${demo.apiKey}\n` +
        `Owner ${owner.email}: set a password and sign in (single use, 1 hour): ${owner.setPasswordUrl}\n` +
        `(A new link: npm run cli -- user reset-password --email ${owner.email})\n`,
    );
    logger.info({ workspaceId: demo.workspaceId }, "demo workspace created");
  }
}
const workers = await startWorkers(jobDefinitions(workerProviders()));
const api = await startApi();
onShutdown(api.drain, workers.close);
