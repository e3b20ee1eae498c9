// Prisma CLI configuration. The schema engine runs as WebAssembly through a driver adapter, so the
// CLI needs no native engine download (see prisma/migrate-adapter.ts and STACK notes in README).
import { defineConfig } from "prisma/config";
import { migrateAdapter } from "./prisma/migrate-adapter.js";

// The WASM engine leaves long timers running after its work is done, which keeps the CLI alive for
// up to a minute; unref-ing long timers lets it exit as soon as the work is finished.
const originalSetTimeout = globalThis.setTimeout;
const originalSetInterval = globalThis.setInterval;
globalThis.setTimeout = ((fn: (...a: unknown[]) => void, ms?: number, ...rest: unknown[]) => {
  const t = originalSetTimeout(fn, ms, ...rest);
  if ((ms ?? 0) >= 5000) t.unref?.();
  return t;
}) as typeof setTimeout;
globalThis.setInterval = ((fn: (...a: unknown[]) => void, ms?: number, ...rest: unknown[]) => {
  const t = originalSetInterval(fn, ms, ...rest);
  if ((ms ?? 0) >= 5000) t.unref?.();
  return t;
}) as typeof setInterval;

const databaseUrl = process.env.DATABASE_URL ?? "postgresql://root@127.0.0.1:5432/video_service";
process.env.DATABASE_URL = databaseUrl;

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: "prisma/schema",
  migrations: { path: "prisma/migrations" },
  async adapter() {
    return migrateAdapter(databaseUrl);
  },
});
