/**
 * The headers of every page the service answers with HTML (one place:
 * src/http/pages.ts): no framing by others (`frame-ancestors 'none'` and X-Frame-Options), no MIME
 * sniffing, the referrer kept to the origin, and a page rendered for a session (GraphiQL names the person
 * and their workspaces) never stored (`Cache-Control: no-store`, `Vary: Cookie`). Each page's headers
 * are listed below; JSON answers are left as they were.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  process.env.ADMIN_TOKEN = "test-admin-token-for-page-headers";
});

import type { RunningApi } from "../../src/main/server.js";
import { newWorkspace, request, startTestApi, stopAll } from "../helpers/api.js";
import { newPerson, signedIn, type PersonClient } from "../helpers/people.js";
import { requireBuiltDashboard } from "../web/harness.js";

let api: RunningApi;
let person: PersonClient;

beforeAll(async () => {
  requireBuiltDashboard();
  api = await startTestApi();
  const { workspaceId } = await newWorkspace("free", "Headers");
  await newPerson("headers@example.com", workspaceId, "owner");
  person = await signedIn(api.url, "headers@example.com");
});
afterAll(() => stopAll(api));

/** Every HTML answer: framing refused, no sniffing, the referrer kept to the origin. */
const EVERY_PAGE = {
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  "referrer-policy": "same-origin",
};
/** A page rendered for whoever asks (a person's name, email, workspaces): never kept by a cache. */
const PRIVATE = { "cache-control": "no-store", vary: expect.stringMatching(/\bCookie\b/) };
/** The dashboard's index.html: the same bytes for everyone (it asks GraphQL for the person), revalidated each time. */
const SAME_FOR_EVERYONE = { "cache-control": "no-cache" };
const html = { accept: "text/html" };
const basic = { authorization: `Basic ${Buffer.from("admin:test-admin-token-for-page-headers").toString("base64")}` };

const PAGES: {
  page: string;
  path: string;
  signedIn: boolean;
  headers?: Record<string, string>;
  expected: Record<string, unknown>;
  policy: RegExp;
}[] = [
  { page: "dashboard: overview", path: "/", signedIn: true, expected: SAME_FOR_EVERYONE, policy: /script-src 'self'/ },
  { page: "dashboard: settings", path: "/settings/members", signedIn: true, expected: SAME_FOR_EVERYONE, policy: /script-src 'self'/ },
  { page: "sign-in", path: "/sign-in?next=%2Fvideos", signedIn: false, expected: SAME_FOR_EVERYONE, policy: /script-src 'self'/ },
  { page: "set a password", path: "/reset-password?token=abc", signedIn: false, expected: SAME_FOR_EVERYONE, policy: /script-src 'self'/ },
  {
    page: "accept an invitation",
    path: "/accept-invitation?token=abc",
    signedIn: false,
    expected: SAME_FOR_EVERYONE,
    policy: /script-src 'self'/,
  },
  {
    page: "GraphiQL, signed in",
    path: "/graphql",
    signedIn: true,
    expected: PRIVATE,
    policy: /script-src 'self'; style-src 'self' 'unsafe-inline'/,
  },
  {
    page: "GraphiQL from a link",
    path: `/graphql?query=${encodeURIComponent("{ viewer { email } }")}`,
    signedIn: true,
    expected: PRIVATE,
    policy: /script-src 'self'/,
  },
  { page: "GraphiQL, signed out", path: "/graphql", signedIn: false, expected: PRIVATE, policy: /script-src 'self'/ },
  { page: "queue board", path: "/admin/queues", signedIn: false, headers: basic, expected: PRIVATE, policy: /^frame-ancestors 'none'$/ },
];

describe("the headers of each page", () => {
  it.each(PAGES)("$page ($path)", async ({ path, signedIn, headers, expected, policy }) => {
    const r = signedIn
      ? await person.send("GET", path, { headers: { ...html, ...headers } })
      : await request(api.url, "GET", path, { headers: { ...html, ...headers } });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toMatch(/^text\/html/);
    const got = Object.fromEntries([...r.headers].filter(([name]) => name in EVERY_PAGE || name in expected));
    expect(got).toEqual({ ...EVERY_PAGE, ...expected });
    const csp = r.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toMatch(policy);
    if (path.startsWith("/graphql")) expect(r.text).not.toMatch(/<script>|<script (?!defer src=|type="application\/json")/); // no inline script to allow
  });

  it("a HEAD of a page gets them too; JSON answers are left as they were", async () => {
    const head = await request(api.url, "HEAD", "/sign-in", { headers: html });
    expect(head.status).toBe(200);
    expect(head.headers.get("x-frame-options")).toBe("DENY");
    for (const [method, path] of [
      ["GET", "/healthz"],
      ["GET", "/api/v1/no-such-route"],
      ["GET", "/graphql?query=%7B__typename%7D"],
    ] as const) {
      const r = await request(api.url, method, path, { headers: { accept: "application/json" } });
      expect(r.headers.get("content-type"), path).toMatch(/json/);
      expect(r.headers.get("x-frame-options"), path).toBeNull();
      expect(r.headers.get("content-security-policy"), path).toBeNull();
    }
  });
});
