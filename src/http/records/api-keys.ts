/** API keys as REST /settings/api-keys lists them (never the secret): schema and mapper. */
import { z } from "zod";
import type { ApiKeyInfo } from "../../domain/keys/service.ts";
import { iso, isoOrNull, timestamp } from "../../domain/shared/records.ts";

export const keyItem = z
  .object({
    id: z.string(),
    name: z.string(),
    prefix: z.string().meta({ description: "First characters of the key, to tell keys apart. Never the secret." }),
    createdAt: timestamp,
    lastUsedAt: timestamp.nullable(),
    revokedAt: timestamp.nullable(),
  })
  .meta({ id: "ApiKey" });

export const toItem = (k: ApiKeyInfo) => ({
  id: k.id,
  name: k.name,
  prefix: k.prefix,
  createdAt: iso(k.createdAt),
  lastUsedAt: isoOrNull(k.lastUsedAt),
  revokedAt: isoOrNull(k.revokedAt),
});
