/**
 * A first try of webhooks on `npm start` without WEBHOOK_SECRET_KEY: in development (NODE_ENV unset
 * or `development`) a key is generated once into a local file (WEBHOOK_SECRET_KEY_FILE, default
 * `.webhook-secret-key` at the repository's root, git-ignored, mode 0600) and used from then on, so
 * the secrets it encrypted stay readable across restarts; the entry point logs that it did so. In
 * production (and in tests) nothing is generated: the variable is required for webhooks
 * (src/domain/webhooks/secrets.ts answers 503 WEBHOOKS_NOT_CONFIGURED without it).
 *
 * Imported before src/config.ts reads the environment (it imports nothing of the service).
 */
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const DEFAULT_FILE = fileURLToPath(new URL("../../.webhook-secret-key", import.meta.url));

/**
 * Sets `env.WEBHOOK_SECRET_KEY` from the local file (generating it when missing) when the key is unset
 * in development. Answers what it did, for the log, or null when it did nothing.
 */
export function ensureLocalWebhookKey(env: NodeJS.ProcessEnv = process.env): { file: string; generated: boolean } | null {
  if (env.WEBHOOK_SECRET_KEY || (env.NODE_ENV ?? "development") !== "development") return null;
  const file = env.WEBHOOK_SECRET_KEY_FILE || DEFAULT_FILE;
  const stored = existsSync(file) ? readFileSync(file, "utf8").trim() : "";
  const generated = stored.length < 32;
  const key = generated ? randomBytes(32).toString("base64") : stored;
  if (generated) writeFileSync(file, `${key}\n`, { mode: 0o600 });
  env.WEBHOOK_SECRET_KEY = key;
  return { file, generated };
}

/** What this process's start did (read by the entry point once the logger exists). */
export const localWebhookKey = ensureLocalWebhookKey();
