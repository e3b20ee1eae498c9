/** GraphQL: workspace info, credits and API keys, through the same services as REST. */
import { builder } from "../builder.js";
import { getWorkspaceInfo, type TrackingLimits } from "../../../domain/workspace/service.js";
import { getBalance, listLedger, type CreditBalance, type LedgerEntry } from "../../../domain/credits/service.js";
import { createKey, listKeys, revokeKey, type ApiKeyInfo } from "../../../domain/keys/service.js";
import { parseInput } from "../../../domain/shared/inputs.js";
import { z } from "zod";
import { subscribeEvents } from "../../../domain/shared/events.js";

const CreditEntryKind = builder.enumType("CreditEntryKind", {
  values: { GRANT: { value: "grant" }, RENEWAL: { value: "renewal" }, CHARGE: { value: "charge" }, REFUND: { value: "refund" } } as const,
});

const LedgerEntryRef = builder.objectRef<LedgerEntry>("CreditLedgerEntry").implement({
  fields: (t) => ({
    id: t.exposeID("id"),
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
    ledger: t.field({
      type: [LedgerEntryRef],
      description: "Latest ledger entries, newest first.",
      args: { limit: t.arg.int({ defaultValue: 20 }) },
      resolve: (c, args) => listLedger(c.workspaceId, parseInput(z.number().int().min(1).max(100), args.limit, "limit")),
    }),
  }),
});

const Limits = builder.objectRef<TrackingLimits>("TrackingLimits").implement({
  fields: (t) => ({
    videoLimit: t.exposeInt("videoLimit"),
    videoSlotsUsed: t.exposeInt("videoSlotsUsed"),
    additionsRemaining: t.exposeInt("additionsRemaining"),
  }),
});

const WorkspaceInfoRef = builder.objectRef<Awaited<ReturnType<typeof getWorkspaceInfo>> & { workspaceId: string }>("Workspace").implement({
  fields: (t) => ({
    id: t.id({ resolve: (w) => w.workspaceId }),
    plan: t.exposeString("plan"),
    credits: t.field({ type: Credits, resolve: (w) => ({ ...w.credits, workspaceId: w.workspaceId }) }),
    limits: t.field({ type: Limits, resolve: (w) => w.limits }),
  }),
});

const ApiKeyRef = builder.objectRef<ApiKeyInfo>("ApiKey").implement({
  fields: (t) => ({
    id: t.exposeID("id"),
    name: t.exposeString("name"),
    prefix: t.exposeString("prefix"),
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

const keyName = z.string().trim().min(1, "name must not be empty").max(255, "name must be at most 255 characters");
const keyId = z.guid({ message: "must be a UUID" });

builder.queryFields((t) => ({
  workspace: t.field({
    type: WorkspaceInfoRef,
    resolve: async (_r, _a, ctx) => ({ ...(await getWorkspaceInfo(ctx.auth.workspaceId)), workspaceId: ctx.auth.workspaceId }),
  }),
  credits: t.field({
    type: Credits,
    resolve: async (_r, _a, ctx) => ({ ...(await getBalance(ctx.auth.workspaceId)), workspaceId: ctx.auth.workspaceId }),
  }),
  apiKeys: t.field({ type: [ApiKeyRef], resolve: (_r, _a, ctx) => listKeys(ctx.auth.workspaceId) }),
}));

builder.subscriptionFields((t) => ({
  creditsUpdated: t.field({
    type: Credits,
    description: "The workspace's credit balance, each time it changes (charges, refunds, grants, reservations, renewals).",
    subscribe: (_r, _a, ctx) => subscribeEvents("creditsUpdated", ctx.auth.workspaceId),
    resolve: async (_event, _a, ctx) => ({ ...(await getBalance(ctx.auth.workspaceId)), workspaceId: ctx.auth.workspaceId }),
  }),
}));

builder.mutationFields((t) => ({
  createApiKey: t.field({
    type: CreatedApiKey,
    description: "Creates an API key; at most 5 active per workspace (KEY_LIMIT_REACHED beyond).",
    args: { name: t.arg.string({ required: true }) },
    resolve: (_r, args, ctx) => createKey(ctx.auth.workspaceId, parseInput(keyName, args.name, "name")),
  }),
  revokeApiKey: t.field({
    type: ApiKeyRef,
    description: "Revokes a key; it is refused on its very next request, by every server process.",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, args, ctx) => revokeKey(ctx.auth.workspaceId, parseInput(keyId, String(args.id), "id")),
  }),
}));
