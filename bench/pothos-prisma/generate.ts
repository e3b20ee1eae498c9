/**
 * What the plugin arms of bench/pothos-prisma.ts need from Prisma, generated from a copy of the
 * service's schema (prisma/schema/*.prisma) so that the service's own generator, its client and
 * `npm ci`'s `prisma generate` stay exactly as they are:
 *
 * - ./generated/pothos-types.ts: @pothos/plugin-prisma's `prisma-pothos-types` generator (the
 *   PrismaTypes the builder is typed with, and `getDatamodel()`, the model map the plugin reads at
 *   run time), typed against the service's client (src/generated/prisma). Committed, so that
 *   `tsc` checks bench/ on a fresh checkout; every benchmark run writes it again (a schema change
 *   shows as a diff of it).
 * - JOINS_CLIENT_DIR: a second Prisma client, the service's generator block plus the
 *   `relationJoins` preview feature (relations loaded with LATERAL joins in one statement), under
 *   node_modules/.cache (not type-checked, not committed): the service's client is not touched.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import type { PrismaClient } from "../../src/generated/prisma/client.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const SCHEMA_COPY = join(ROOT, "bench/.data/pothos-prisma-schema");
export const POTHOS_TYPES = join(ROOT, "bench/pothos-prisma/generated/pothos-types.ts");
export const JOINS_CLIENT_DIR = join(ROOT, "node_modules/.cache/pothos-prisma/joins-client");

/** The benchmark's servers (./server.ts): today's schema, the plugin's over the service's client, the plugin's over the relationJoins client. */
export type Arm = "today" | "plugin" | "plugin-joins";

/** The service's generator block, found to be replaced (base.prisma holds it). */
const CLIENT_GENERATOR = /generator client \{[^}]*\}/;

/**
 * The copy's generators: the service's own block with another output and the `relationJoins`
 * preview feature (so the second client is built exactly as the service's is, but for joins), and
 * the plugin's.
 */
function generators(serviceBlock: string): string {
  if (serviceBlock.includes("previewFeatures"))
    throw new Error("the service's generator has previewFeatures: add relationJoins to them in bench/pothos-prisma/generate.ts");
  const joins = serviceBlock
    .replace(/^generator client \{/, "generator joins {")
    .replace(/output\s*=\s*"[^"]*"/, `output = "${JOINS_CLIENT_DIR}"`)
    .replace(/\}$/, `  previewFeatures = ["relationJoins"]\n}`);
  return `${joins}

generator pothos {
  provider          = "prisma-pothos-types"
  output            = "${POTHOS_TYPES}"
  clientOutput      = "../../../src/generated/prisma/client.js"
  generateDatamodel = "true"
}`;
}

/** Runs both generators on a copy of prisma/schema (about 10 s); returns whether pothos-types.ts changed. */
export function generatePluginArtifacts(): boolean {
  const before = existsSync(POTHOS_TYPES) ? readFileSync(POTHOS_TYPES, "utf8") : "";
  rmSync(SCHEMA_COPY, { recursive: true, force: true });
  mkdirSync(SCHEMA_COPY, { recursive: true });
  let replaced = false;
  for (const file of readdirSync(join(ROOT, "prisma/schema")).filter((f) => f.endsWith(".prisma"))) {
    let text = readFileSync(join(ROOT, "prisma/schema", file), "utf8");
    if (CLIENT_GENERATOR.test(text)) {
      text = text.replace(CLIENT_GENERATOR, (block) => generators(block));
      replaced = true;
    }
    writeFileSync(join(SCHEMA_COPY, file), text);
  }
  if (!replaced) throw new Error("prisma/schema has no `generator client { … }` block to replace");
  execFileSync("npx", ["prisma", "generate", "--schema", SCHEMA_COPY], { cwd: ROOT, stdio: ["ignore", "ignore", "inherit"] });
  return readFileSync(POTHOS_TYPES, "utf8") !== before;
}

/** The relationJoins client on a pool configured as the service's (src/infra/db.ts). */
export async function joinsClient(url: string): Promise<PrismaClient> {
  const { PrismaPg } = await import("@prisma/adapter-pg");
  const modulePath: string = join(JOINS_CLIENT_DIR, "client.ts"); // generated at run time: not type-checked
  const { PrismaClient: JoinsClient } = (await import(modulePath)) as { PrismaClient: new (options: object) => PrismaClient };
  const pool = new pg.Pool({ connectionString: url, max: 20, idleTimeoutMillis: 30_000 });
  pool.on("error", () => undefined);
  return new JoinsClient({ adapter: new PrismaPg(pool), transactionOptions: { maxWait: 10_000, timeout: 20_000 } });
}

/**
 * Type-checks ./schema.ts and ./generated in their own program (./tsconfig.json; `tsc -p .` leaves
 * them out, see there): the benchmark refuses to measure a schema that does not compile.
 */
export function typecheckPluginSchema(): void {
  execFileSync("node", ["node_modules/typescript-7/bin/tsc", "--noEmit", "-p", "bench/pothos-prisma"], { cwd: ROOT, stdio: "inherit" });
}
