/**
 * Admin CLI: the "web dashboard" operations of the spec, for operators and scripts.
 *
 *   npm run cli -- workspace create --name NAME [--plan PLAN] [--json]
 *   npm run cli -- key create --workspace ID --name NAME [--json]
 *   npm run cli -- key list --workspace ID [--json]
 *   npm run cli -- key revoke --key ID [--json]
 *   npm run cli -- credits grant --workspace ID --amount N [--reason TEXT] [--json]
 *   npm run cli -- plan set --workspace ID --plan PLAN [--json]
 *   npm run cli -- user create --email E --password P [--name NAME] [--workspace ID --role owner|member] [--json]
 *   npm run cli -- user reset-password --email E [--json]
 *   npm run cli -- member add --workspace ID --email E --role owner|member [--json]
 *   npm run cli -- mail list [--to EMAIL] [--limit N] [--json]
 *   npm run cli -- mcp --key API_KEY      (MCP over stdio; stdout carries protocol messages only)
 *
 * With --json, exactly one JSON object is printed on stdout (errors too: {"error": {code, message}},
 * exit status 1). Logs go nowhere unless LOG_LEVEL is set.
 */
import { randomUUID } from "node:crypto";
import { enableCompileCache } from "node:module";
import { parseArgs } from "node:util";

// A command is a short process that loads much of the service: V8's compiled code of those modules is kept between
// commands (Node.js' compile cache, under the system's temporary folder or NODE_COMPILE_CACHE), a third less to start.
enableCompileCache();

const { values, positionals } = parseArgs({
  allowPositionals: true,
  strict: false,
  options: {
    json: { type: "boolean", default: false },
    name: { type: "string" },
    plan: { type: "string" },
    workspace: { type: "string" },
    key: { type: "string" },
    amount: { type: "string" },
    reason: { type: "string" },
    email: { type: "string" },
    password: { type: "string" },
    role: { type: "string" },
    to: { type: "string" },
    limit: { type: "string" },
  },
});

/** `mcp`: stdout belongs to the MCP protocol, so everything else (logs, stray console output) goes to stderr. */
const mcpMode = positionals[0] === "mcp";
if (mcpMode) {
  process.env.LOG_DESTINATION = "stderr";
  process.env.LOG_LEVEL ??= "warn";
  console.log = console.info = console.debug = console.error;
} else {
  process.env.LOG_LEVEL ??= "silent";
}

// Without DATABASE_URL and REDIS_URL, the servers npm start would use: the default addresses, or this checkout's own
// (started for the command when none runs, and stopped after it; src/main/local-services.ts).
const { servicesForEntryPoint } = await import("../main/local-services.ts");
const services = await servicesForEntryPoint("the command");
for (const c of [services.postgres, services.redis]) if (c.source === "local") console.error(c.line);

const { DomainError } = await import("../domain/shared/errors.ts");
const { createWorkspace, setPlan } = await import("../domain/workspace/service.ts");
const { createKey, listKeys, revokeKeyById } = await import("../domain/keys/service.ts");
const { grant } = await import("../domain/credits/service.ts");
const { prisma, closeDb } = await import("../infra/db.ts");
const { closeRedis } = await import("../infra/redis.ts");
const { closeQueues } = await import("../infra/queues.ts");
const { createUser, resetPasswordLink, userByEmail } = await import("../domain/people/users.ts");
const { setMembership } = await import("../domain/people/members.ts");
const { OPERATOR } = await import("../domain/actors/actor.ts");
const { listMailbox } = await import("../domain/mail/mailbox.ts");

const USAGE = `Usage: npm run cli -- <command> [options] [--json]
  workspace create --name NAME [--plan PLAN]
  key create --workspace ID --name NAME
  key list --workspace ID
  key revoke --key ID
  credits grant --workspace ID --amount N [--reason TEXT]
  plan set --workspace ID --plan PLAN
  user create --email E --password P [--name NAME] [--workspace ID --role owner|member]
  user reset-password --email E
  member add --workspace ID --email E --role owner|member
  mail list [--to EMAIL] [--limit N]   (the latest mails: the dev mailbox when no SMTP_URL is set)
  mcp --key API_KEY          (an MCP server on stdin/stdout for desktop assistants)`;

class UsageError extends Error {}

function required(name: string): string {
  const v = values[name];
  if (typeof v !== "string" || v.trim() === "") throw new UsageError(`--${name} is required`);
  return v.trim();
}

function uuidOption(name: string): string {
  const v = required(name);
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v)) throw new UsageError(`--${name} must be a UUID`);
  return v;
}

async function requireWorkspace(id: string): Promise<string> {
  if (!(await prisma.workspace.findUnique({ where: { id }, select: { id: true } }))) {
    throw new DomainError("NOT_FOUND", `Workspace ${id} not found.`);
  }
  return id;
}

function roleOption(): "owner" | "member" {
  const role = required("role");
  if (role !== "owner" && role !== "member") throw new UsageError("--role must be owner or member");
  return role;
}

type Result = { json: Record<string, unknown>; text: string };

async function run(command: string): Promise<Result> {
  switch (command) {
    case "workspace create": {
      const { workspace, secret } = await createWorkspace({ name: required("name"), plan: values.plan as string | undefined });
      return {
        json: { workspaceId: workspace.id, apiKey: secret },
        text: `Workspace ${workspace.id} created on plan ${workspace.planName}.\nAPI key (shown once): ${secret}`,
      };
    }
    case "key create": {
      const workspaceId = await requireWorkspace(uuidOption("workspace"));
      const { key, secret } = await createKey(workspaceId, required("name"));
      return { json: { keyId: key.id, apiKey: secret }, text: `Key ${key.id} created.\nAPI key (shown once): ${secret}` };
    }
    case "key list": {
      const keys = await listKeys(await requireWorkspace(uuidOption("workspace")));
      return {
        json: { keys },
        text:
          keys
            .map((k) => `${k.id}  ${k.prefix}…  ${k.name}  ${k.revokedAt ? `revoked ${k.revokedAt.toISOString()}` : "active"}`)
            .join("\n") || "No keys.",
      };
    }
    case "key revoke": {
      const key = await revokeKeyById(uuidOption("key"));
      return {
        json: { keyId: key.id, revokedAt: key.revokedAt!.toISOString() },
        text: `Key ${key.id} revoked at ${key.revokedAt!.toISOString()}.`,
      };
    }
    case "credits grant": {
      const workspaceId = await requireWorkspace(uuidOption("workspace"));
      const amount = Number(required("amount"));
      if (!Number.isInteger(amount) || amount <= 0 || amount > 100_000_000) throw new UsageError("--amount must be a positive integer");
      const result = await grant({
        workspaceId,
        amount,
        idempotencyKey: `cli-grant:${randomUUID()}`,
        reason: (values.reason as string | undefined) ?? "granted by operator",
      });
      return {
        json: { workspaceId, totalRemaining: result.balance.totalRemaining },
        text: `Granted ${amount} credits; total remaining ${result.balance.totalRemaining}.`,
      };
    }
    case "plan set": {
      const result = await setPlan(await requireWorkspace(uuidOption("workspace")), required("plan"));
      return { json: result, text: `Workspace ${result.workspaceId} is now on plan ${result.plan}.` };
    }
    case "user create": {
      // --workspace and --role go together (a role without a workspace means nothing).
      if (values.role !== undefined && values.workspace === undefined) throw new UsageError("--role needs --workspace");
      const workspaceId = values.workspace === undefined ? null : await requireWorkspace(uuidOption("workspace"));
      const role = workspaceId ? (values.role === undefined ? "member" : roleOption()) : null;
      const password = typeof values.password === "string" ? values.password : undefined;
      const user = await createUser({ email: required("email"), name: values.name as string | undefined, password });
      if (workspaceId && role) await setMembership({ workspaceId, userId: user.id, role, by: OPERATOR });
      // Without --password the person sets one through a single-use link (1 hour).
      const resetUrl = password === undefined ? await resetPasswordLink(user.email) : undefined;
      return {
        json: { userId: user.id, ...(resetUrl ? { resetUrl } : {}) },
        text:
          `User ${user.id} (${user.email}) created${workspaceId ? `, ${role} of workspace ${workspaceId}` : ""}.` +
          (resetUrl ? `\nSet the password (single use, 1 hour): ${resetUrl}` : ""),
      };
    }
    case "user reset-password": {
      const resetUrl = await resetPasswordLink(required("email"));
      return { json: { resetUrl }, text: `Set a new password (single use, 1 hour; the user's sessions end when it is used):\n${resetUrl}` };
    }
    case "member add": {
      const workspaceId = await requireWorkspace(uuidOption("workspace"));
      const role = roleOption();
      const user = await userByEmail(required("email"));
      const member = await setMembership({ workspaceId, userId: user.id, role, by: OPERATOR });
      return {
        json: { workspaceId, userId: user.id, memberId: member.id, role: member.role },
        text: `${user.email} is ${member.role === "owner" ? "an owner" : "a member"} of workspace ${workspaceId}.`,
      };
    }
    case "mail list": {
      const limit = values.limit === undefined ? 20 : Number(values.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 500) throw new UsageError("--limit must be an integer from 1 to 500");
      const mails = await listMailbox(limit, typeof values.to === "string" ? values.to : undefined);
      return {
        json: { mails },
        text:
          mails
            .map((m) => `${m.createdAt}  ${m.status.padEnd(7)}  to ${m.to}  ${m.subject}\n${m.links.map((l) => `    ${l}`).join("\n")}`)
            .join("\n") || "No mails.",
      };
    }
    default:
      throw new UsageError(command ? `Unknown command "${command}".` : "No command given.");
  }
}

/**
 * `mcp --key KEY`: serves MCP on stdin/stdout (src/http/mcp/stdio.ts) until the client closes stdin
 * or the process gets SIGINT/SIGTERM. A refused key or a usage error is one line on stderr, exit 1.
 */
async function serveMcp(): Promise<void> {
  const { serveStdio } = await import("../http/mcp/stdio.ts");
  const secret = values.key;
  if (typeof secret !== "string" || secret.trim() === "")
    throw new UsageError("--key is required (the API key whose workspace the server serves)");
  const mcp = await serveStdio(secret.trim());
  const stop = () => void mcp.close();
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  await mcp.closed;
}

let exitCode = 0;
try {
  if (mcpMode) {
    await serveMcp();
  } else {
    const result = await run(positionals.slice(0, 2).join(" "));
    console.log(values.json ? JSON.stringify(result.json) : result.text);
  }
} catch (e) {
  exitCode = 1;
  const code = e instanceof DomainError ? e.code : e instanceof UsageError ? "USAGE" : "INTERNAL_ERROR";
  const message = e instanceof DomainError || e instanceof UsageError ? e.message : `Unexpected error: ${(e as Error).message}`;
  if (values.json && !mcpMode) console.log(JSON.stringify({ error: { code, message } }));
  else console.error(`${mcpMode ? `${code}: ` : ""}${message}${code === "USAGE" ? `\n\n${USAGE}` : ""}`);
} finally {
  await closeQueues().catch(() => undefined);
  await closeRedis().catch(() => undefined);
  await closeDb().catch(() => undefined);
  await services
    .release()
    .catch((e: unknown) => console.error(`Could not stop this checkout's PostgreSQL or Redis: ${(e as Error).message}`));
}
process.exit(exitCode);
