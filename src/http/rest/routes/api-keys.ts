/** /settings/api-keys: list, create (the secret is shown once) and revoke. */
import { z } from "zod";
import { createKey, listKeys, revokeKey } from "../../../domain/keys/service.ts";
import { defineRoute } from "../route.ts";
import { iso, timestamp, uuid } from "../../../domain/shared/records.ts";
import { keyItem, toItem } from "../../records/api-keys.ts";
import { createKeyInput } from "../../../domain/keys/inputs.ts";

export const apiKeyRoutes = [
  defineRoute({
    method: "get",
    path: "/settings/api-keys",
    operationId: "listApiKeys",
    summary: "List the workspace's API keys (active and revoked)",
    tags: ["API keys"],
    permission: "apiKeys.manage",
    responses: { 200: { description: "Keys, oldest first; never the secret.", schema: z.object({ data: z.array(keyItem) }) } },
    async handler({ auth }) {
      return { body: { data: (await listKeys(auth.workspaceId)).map(toItem) } };
    },
  }),
  defineRoute({
    method: "post",
    path: "/settings/api-keys",
    operationId: "createApiKey",
    summary: "Create an API key (shown once)",
    description: "A workspace has at most 5 active keys; a sixth answers 409 KEY_LIMIT_REACHED.",
    tags: ["API keys"],
    permission: "apiKeys.manage",
    body: createKeyInput,
    errors: ["KEY_LIMIT_REACHED"],
    responses: {
      201: {
        description: "The new key. `key` is the secret, displayed this once only.",
        schema: z.object({
          data: z.object({ id: z.string(), name: z.string(), key: z.string().meta({ example: "svc_sk_..." }), createdAt: timestamp }),
          message: z.string(),
        }),
      },
    },
    async handler({ auth, body }) {
      const { key, secret } = await createKey(auth.workspaceId, body.name, undefined, auth);
      return {
        status: 201,
        body: {
          data: { id: key.id, name: key.name, key: secret, createdAt: iso(key.createdAt) },
          message: "API key created. Store it now: it will not be shown again.",
        },
      };
    },
  }),
  defineRoute({
    method: "delete",
    path: "/settings/api-keys/{keyId}",
    operationId: "revokeApiKey",
    summary: "Revoke an API key",
    description: "The revoked key is refused on its very next request, by every server process. Revocation cannot be undone.",
    tags: ["API keys"],
    permission: "apiKeys.manage",
    params: z.object({ keyId: uuid }),
    errors: ["NOT_FOUND"],
    responses: {
      200: {
        description: "The key is revoked.",
        schema: z.object({ data: z.object({ id: z.string(), revokedAt: timestamp }), message: z.string() }),
      },
    },
    async handler({ auth, params }) {
      const key = await revokeKey(auth.workspaceId, params.keyId, auth);
      return { body: { data: { id: key.id, revokedAt: iso(key.revokedAt!) }, message: "API key revoked." } };
    },
  }),
];
