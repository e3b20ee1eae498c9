/**
 * REST admits the credential before it reads the body (src/http/rest/router.ts, as GraphQL's admission
 * does): a request without a valid key is refused 401 whatever its body, which is never parsed; with a
 * key, the same bodies get their own answers (400 for malformed JSON, 413 past 1 MiB). The media-type
 * rule (415) is still checked first, from the headers alone.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningApi } from "../../src/main/server.js";
import { newWorkspace, request, startTestApi, stopAll } from "../helpers/api.js";

let api: RunningApi;
let key: string;
beforeAll(async () => {
  api = await startTestApi();
  ({ key } = await newWorkspace());
});
afterAll(() => stopAll(api));

const json = { "content-type": "application/json" };
const tooLarge = `{"name":"${"x".repeat(1_100_000)}"}`;

describe("REST reads a body only for an admitted request", () => {
  it("malformed JSON: 401 without a key (not parsed), 400 with one", async () => {
    const anonymous = await request(api.url, "POST", "/api/v1/folders", { rawBody: "{not json", headers: json });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe("UNAUTHORIZED");
    const unknownKey = await request(api.url, "POST", "/api/v1/folders", {
      key: "svc_sk_" + "A".repeat(43),
      rawBody: "{not json",
      headers: json,
    });
    expect(unknownKey.status).toBe(401);
    const admitted = await request(api.url, "POST", "/api/v1/folders", { key, rawBody: "{not json", headers: json });
    expect(admitted.status).toBe(400);
  });

  it("a body over 1 MiB: 401 without a key, 413 with one", async () => {
    expect((await request(api.url, "POST", "/api/v1/folders", { rawBody: tooLarge, headers: json })).status).toBe(401);
    const admitted = await request(api.url, "POST", "/api/v1/folders", { key, rawBody: tooLarge, headers: json });
    expect(admitted.status).toBe(413);
    expect(admitted.body.code).toBe("PAYLOAD_TOO_LARGE");
  });

  it("a body not declared JSON is still 415 first, and a well-formed one still works", async () => {
    const r = await request(api.url, "POST", "/api/v1/folders", {
      rawBody: "name=x",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(r.status).toBe(415);
    const created = await request(api.url, "POST", "/api/v1/folders", { key, body: { name: "Read after admission" } });
    expect(created.status).toBe(201);
  });
});
