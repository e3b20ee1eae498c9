/**
 * Idempotency-Key through a database blip (src/domain/shared/idempotency.ts). The blip is real and narrow: a
 * trigger on `idempotent_requests` makes PostgreSQL refuse the one statement under test (the release's DELETE,
 * the answer's UPDATE), as a database that went away at that moment would, then is dropped (it came back).
 *
 * - A claim whose release failed is let go once the database answers again (the release is retried), so the
 *   retry runs at once instead of hearing 409 IDEMPOTENCY_KEY_IN_USE until the claim's lease ends.
 * - An answer that could not be stored is not sent: the client gets 503 SERVICE_UNAVAILABLE with Retry-After
 *   (not kept), and the retry with the same key runs again; its answer is then the one replayed. A 201 is never
 *   sent and later "replayed" as something else.
 */
import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { newWorkspace, request, startTestApi, stopAll } from "../helpers/api.js";
import { waitFor } from "../helpers/wait.js";
import { pgPool } from "../../src/infra/db.js";
import { claimIdempotentRequest, releaseIdempotentRequest, type IdempotencyClaim } from "../../src/domain/shared/idempotency.js";
import type { RunningApi } from "../../src/main/server.js";

let api: RunningApi;
beforeAll(async () => {
  api = await startTestApi();
  await pgPool.query(`
    CREATE FUNCTION blip() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION 'the database went away'; END $$;`);
});
afterEach(async () => {
  await pgPool.query("DROP TRIGGER IF EXISTS blip ON idempotent_requests");
});
afterAll(() => stopAll(api));

const blip = (on: "DELETE" | "UPDATE") =>
  pgPool.query(`CREATE TRIGGER blip BEFORE ${on} ON idempotent_requests FOR EACH ROW EXECUTE FUNCTION blip()`);
const blipEnds = () => pgPool.query("DROP TRIGGER blip ON idempotent_requests");

describe("Idempotency-Key after a database blip", () => {
  it("a release that failed is retried: the key is free within a second of the database answering again", async () => {
    const { workspaceId } = await newWorkspace();
    const req = { workspaceId, key: randomUUID(), method: "POST", path: "/x", payload: { a: 1 }, asker: "k" };
    const claimed = (await claimIdempotentRequest(req)) as IdempotencyClaim;
    expect(claimed.kind).toBe("claimed");
    await blip("DELETE");
    await releaseIdempotentRequest(claimed); // refused by the database; does not throw
    await expect(claimIdempotentRequest(req)).rejects.toMatchObject({ code: "IDEMPOTENCY_KEY_IN_USE" });
    await blipEnds();
    const started = Date.now();
    const again = await waitFor("the key to be claimable again", () => claimIdempotentRequest(req).catch(() => null), 5_000, 100);
    expect(again.kind).toBe("claimed");
    expect(Date.now() - started).toBeLessThan(2_000); // the retry's interval (0.5 s) and a margin, not the lease (60 s)
  });

  it("an answer that could not be stored is sent as 503 (not kept); the retry runs again and its answer is the one replayed", async () => {
    const { key } = await newWorkspace();
    const idem = randomUUID();
    const body = { url: `https://www.tiktok.com/@blip.user/video/${7_430_000_000_000_000_001n}` };
    const post = () => request(api.url, "POST", "/api/v1/videos", { key, body, headers: { "idempotency-key": idem } });

    await blip("UPDATE");
    const first = await post();
    expect(first.status, first.text).toBe(503);
    expect(first.body).toMatchObject({ code: "SERVICE_UNAVAILABLE" });
    expect(first.headers.get("retry-after")).toBe("5");
    expect(first.headers.get("location")).toBeNull();
    await blipEnds();

    // The retry runs again (the video is tracked by the first run's work): its answer is stored and replayed as it was sent.
    const second = await waitFor("the key to be let go", async () => {
      const r = await post();
      return r.status === 409 && r.body?.code === "IDEMPOTENCY_KEY_IN_USE" ? null : r;
    });
    expect(second.headers.get("idempotent-replayed")).toBeNull();
    const third = await post();
    expect(third.status).toBe(second.status);
    expect(third.text).toBe(second.text);
    expect(third.headers.get("idempotent-replayed")).toBe("true");
  });

  it("GraphQL: a mutation whose result could not be stored answers SERVICE_UNAVAILABLE with retryAfter, not its data", async () => {
    const { key } = await newWorkspace();
    const idem = randomUUID();
    const query = `mutation { trackVideo(url: "https://www.tiktok.com/@blip.user/video/7430000000000000002") { videoId isNew } }`;
    await blip("UPDATE");
    const r = await request(api.url, "POST", "/graphql", { key, body: { query }, headers: { "idempotency-key": idem } });
    expect(r.body.data?.trackVideo ?? null).toBeNull();
    expect(r.body.errors[0].extensions).toMatchObject({ code: "SERVICE_UNAVAILABLE", retryAfter: 5 });
  });
});
