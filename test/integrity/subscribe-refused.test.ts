/**
 * A live subscription whose SUBSCRIBE Redis refuses is told so (SERVICE_UNAVAILABLE) instead of waiting
 * forever for events that cannot come (src/infra/events.ts `subscribed`, src/domain/shared/events.ts
 * `listening`). The API runs as a Redis user without any channel (an ACL user: SUBSCRIBE answers NOPERM);
 * everything else of the request works.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { newWorkspace } from "../helpers/api.js";
import { spawnService, type ServiceProcess } from "../helpers/processes.js";

const admin = new Redis(process.env.REDIS_URL!, { lazyConnect: true, maxRetriesPerRequest: 1 });
const user = `nosub-${randomUUID().slice(0, 8)}`;
const password = randomUUID();
let api: ServiceProcess;

beforeAll(async () => {
  await admin.connect();
  // Every key and command, no pub/sub channel.
  await admin.call("ACL", "SETUSER", user, "on", `>${password}`, "~*", "resetchannels", "+@all");
  const url = new URL(process.env.REDIS_URL!);
  url.username = user;
  url.password = password;
  api = await spawnService("api", { REDIS_URL: url.toString() });
});

afterAll(async () => {
  await api?.stop();
  await admin.call("ACL", "DELUSER", user).catch(() => undefined);
  admin.disconnect();
});

describe("a subscription Redis refuses", () => {
  it("ends with SERVICE_UNAVAILABLE over SSE, and queries still answer", async () => {
    const ws = await newWorkspace();
    const headers = { authorization: `Bearer ${ws.key}`, "content-type": "application/json" };
    const res = await fetch(`${api.url}/graphql`, {
      method: "POST",
      headers: { ...headers, accept: "text/event-stream" },
      body: JSON.stringify({ query: "subscription { creditsUpdated { totalRemaining } }" }),
      signal: AbortSignal.timeout(10_000),
    });
    expect(res.status).toBe(200);
    const text = await res.text(); // the server ends the stream
    const next = text.split("\n\n").find((m) => m.startsWith("event: next"))!;
    const payload = JSON.parse(
      next
        .split("\n")
        .find((l) => l.startsWith("data:"))!
        .slice(5),
    );
    expect(payload.errors[0]).toMatchObject({ extensions: { code: "SERVICE_UNAVAILABLE" } });
    expect(payload.errors[0].message).toContain("Subscribe again");
    expect(text).toMatch(/event: complete/);

    const query = await fetch(`${api.url}/graphql`, {
      method: "POST",
      headers,
      body: JSON.stringify({ query: "{ credits { totalRemaining } }" }),
    });
    expect((await query.json()).data.credits.totalRemaining).toBeGreaterThan(0);
  });
});
