/** GraphQL: the workspace, its credits and API keys, through the same services as REST. */
import { builder } from "../builder.ts";
import { readOncePerEvent, sharedPerEvent } from "../subscriptions.ts";
import { countedConnection, entityId, nodeUuid } from "../connections.ts";
import { getWorkspaceInfo, type WorkspaceInfo } from "../../../domain/workspace/service.ts";
import {
  getBalance,
  LEDGER_ORDER,
  ledgerEntriesByIds,
  ledgerPage,
  watchCredits,
  type CreditBalance,
  type LedgerEntry,
} from "../../../domain/credits/service.ts";
import { createKey, keysByIds, KEYS_ORDER, keysPage, revokeKey, type ApiKeyInfo } from "../../../domain/keys/service.ts";
import { createKeyInput } from "../../../domain/keys/inputs.ts";
import type { TrackingLimits } from "../../../domain/tracking/limits.ts";
import { parseInput } from "../../../domain/shared/inputs.ts";
import { authorize } from "../../../domain/actors/roles.ts";

const CreditEntryKind = builder.enumType("CreditEntryKind", {
  values: { GRANT: { value: "grant" }, RENEWAL: { value: "renewal" }, CHARGE: { value: "charge" }, REFUND: { value: "refund" } } as const,
});

const LedgerEntryRef = builder.loadableNodeRef("CreditLedgerEntry", {
  id: { resolve: (e: LedgerEntry) => e.id, parse: nodeUuid },
  load: (ids: string[], ctx) => ledgerEntriesByIds(ctx.auth.workspaceId, ids),
  sort: (e) => e.id,
  cacheResolved: (e) => e.id,
});

LedgerEntryRef.implement({
  description: "One change of the credit balance.",
  fields: (t) => ({
    uuid: t.exposeID("id"),
    kind: t.field({ type: CreditEntryKind, resolve: (e) => e.kind }),
    amount: t.exposeInt("amount", { description: "Signed change of totalRemaining." }),
    balanceAfter: t.exposeInt("balanceAfter"),
    reason: t.exposeString("reason"),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
  }),
});

const Credits = builder.objectRef<CreditBalance & { workspaceId: string }>("Credits").implement({
  description: "Credit balance. Charges draw the monthly allowance first, then granted credits.",
  fields: (t) => ({
    totalRemaining: t.exposeInt("totalRemaining"),
    monthlyTotal: t.exposeInt("monthlyTotal"),
    monthlyUsed: t.exposeInt("monthlyUsed"),
    monthlyRemaining: t.exposeInt("monthlyRemaining"),
    reserved: t.exposeInt("reserved", { description: "Held by running analyses; charged only on completion." }),
    cycleResetsAt: t.expose("cycleResetsAt", { type: "DateTime" }),
    ledger: t.connection(
      {
        type: LedgerEntryRef,
        description: "Ledger entries, newest first.",
        // The page and its total from one statement (`ledgerPage`): they agree while credits are charged.
        resolve: (c, args) => countedConnection(args, LEDGER_ORDER, (w) => ledgerPage(c.workspaceId, w)),
      },
      { name: "CreditLedgerConnection" },
      { name: "CreditLedgerEdge" },
    ),
  }),
});

const Limits = builder.objectRef<TrackingLimits>("TrackingLimits").implement({
  fields: (t) => ({
    videoLimit: t.exposeInt("videoLimit"),
    videoSlotsUsed: t.exposeInt("videoSlotsUsed"),
    additionsRemaining: t.exposeInt("additionsRemaining"),
  }),
});

type WorkspaceParent = WorkspaceInfo & { id: string };

/** Loads only the caller's own workspace: any other id is null, like an unknown one. */
const WorkspaceRef = builder.loadableNodeRef("Workspace", {
  id: { resolve: (w: WorkspaceParent) => w.id, parse: nodeUuid },
  // Only the caller's own id is read; any other is missing, as in the other nodes' workspace-scoped reads
  // (an Error here answered INTERNAL_ERROR for node(id:) of an unknown Workspace id).
  load: async (ids: string[], ctx) =>
    ids.includes(ctx.auth.workspaceId) ? [{ ...(await getWorkspaceInfo(ctx.auth.workspaceId)), id: ctx.auth.workspaceId }] : [],
  sort: (w) => w.id,
  cacheResolved: (w) => w.id,
});

WorkspaceRef.implement({
  description: "The workspace this request acts on (an API key's own; a person's chosen one): plan, credits and tracking limits.",
  fields: (t) => ({
    uuid: t.exposeID("id"),
    plan: t.exposeString("plan"),
    credits: t.field({ type: Credits, resolve: (w) => ({ ...w.credits, workspaceId: w.id }) }),
    limits: t.field({ type: Limits, resolve: (w) => w.limits }),
  }),
});

const ApiKeyRef = builder.loadableNodeRef("ApiKey", {
  id: { resolve: (k: ApiKeyInfo) => k.id, parse: nodeUuid },
  // Owners only (src/domain/actors/roles.ts), by node(id) as by apiKeys.
  load: (ids: string[], ctx) => {
    authorize(ctx.auth, "apiKeys.manage");
    return keysByIds(ctx.auth.workspaceId, ids);
  },
  sort: (k) => k.id,
  cacheResolved: (k) => k.id,
});

ApiKeyRef.implement({
  description: "An API key of the workspace (never its secret).",
  fields: (t) => ({
    uuid: t.exposeID("id"),
    name: t.exposeString("name"),
    prefix: t.exposeString("prefix", { description: "First characters of the key, to tell keys apart." }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    lastUsedAt: t.expose("lastUsedAt", { type: "DateTime", nullable: true }),
    revokedAt: t.expose("revokedAt", { type: "DateTime", nullable: true }),
  }),
});

const CreatedApiKey = builder.objectRef<{ key: ApiKeyInfo; secret: string }>("CreatedApiKey").implement({
  fields: (t) => ({
    apiKey: t.field({ type: ApiKeyRef, resolve: (c) => c.key }),
    secret: t.exposeString("secret", { description: "The key itself, shown this once only." }),
  }),
});

const balanceOf = async (workspaceId: string) => ({ ...(await getBalance(workspaceId)), workspaceId });

builder.queryFields((t) => ({
  workspace: t.field({
    type: WorkspaceRef,
    resolve: async (_r, _a, ctx) => ({ ...(await getWorkspaceInfo(ctx.auth.workspaceId)), id: ctx.auth.workspaceId }),
  }),
  credits: t.field({ type: Credits, resolve: (_r, _a, ctx) => balanceOf(ctx.auth.workspaceId) }),
  apiKeys: t.connection(
    {
      type: ApiKeyRef,
      description: "The workspace's API keys, active and revoked, oldest first. Owners only (FORBIDDEN for members).",
      resolve: (_r, args, ctx) => {
        authorize(ctx.auth, "apiKeys.manage");
        return countedConnection(args, KEYS_ORDER, (window) => keysPage(ctx.auth.workspaceId, window));
      },
    },
    { name: "ApiKeyConnection" },
    { name: "ApiKeyEdge" },
  ),
}));

builder.subscriptionFields((t) => ({
  creditsUpdated: t.field({
    type: Credits,
    description:
      "The workspace's credit balance: the current one at once, then each time it changes (charges, refunds, grants, reservations, renewals).",
    subscribe: (_r, _a, ctx) => sharedPerEvent(ctx, watchCredits(ctx.auth.workspaceId)),
    // Read on every event, once for all of the workspace's subscribers in this process (../subscriptions.ts).
    resolve: (_event, _a, ctx) => readOncePerEvent(ctx, "credits", () => balanceOf(ctx.auth.workspaceId)),
  }),
}));

builder.mutationFields((t) => ({
  createApiKey: t.field({
    type: CreatedApiKey,
    description:
      "Creates an API key; at most 5 active per workspace (KEY_LIMIT_REACHED beyond). Owners only (FORBIDDEN for members); audited.",
    args: { name: t.arg.string({ required: true }) },
    resolve: (_r, args, ctx) => {
      authorize(ctx.auth, "apiKeys.manage");
      return createKey(ctx.auth.workspaceId, parseInput(createKeyInput, { name: args.name }).name, undefined, ctx.auth);
    },
  }),
  revokeApiKey: t.field({
    type: ApiKeyRef,
    description:
      "Revokes a key (by its global ID or UUID); it is refused on its very next request, by every server process, and its live " +
      "subscriptions end. Owners only (FORBIDDEN for members); audited.",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, args, ctx) => {
      authorize(ctx.auth, "apiKeys.manage");
      return revokeKey(ctx.auth.workspaceId, entityId(args.id, "ApiKey", "id"), ctx.auth);
    },
  }),
}));
