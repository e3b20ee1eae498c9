/**
 * Bull Board at /admin/queues (only with ADMIN_TOKEN, HTTP Basic auth, 404 otherwise) and GraphiQL
 * served from this server with no file from another host (docs/contract/decisions.md, Operations); ADMIN_TOKEN
 * unset and GRAPHIQL=false in a second API process.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request, startTestApi, stopAll } from "../helpers/api.js";
import { spawnService, type ServiceProcess } from "../helpers/processes.js";
import type { RunningApi } from "../../src/main/server.js";

const ADMIN_TOKEN = "board-password-for-tests";
process.env.ADMIN_TOKEN = ADMIN_TOKEN; // before the configuration is first imported (by startTestApi)

let api: RunningApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => stopAll(api));

const basic = (user: string, password: string) => ({ authorization: `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}` });

describe("Bull Board at /admin/queues (ADMIN_TOKEN set)", () => {
  it("asks for HTTP Basic auth: 401 without it, with a wrong password or a wrong user", async () => {
    for (const headers of [
      {},
      basic("admin", "wrong"),
      basic("admin", `${ADMIN_TOKEN}x`),
      basic("root", ADMIN_TOKEN),
      { authorization: `Bearer ${ADMIN_TOKEN}` },
    ]) {
      const r = await request(api.url, "GET", "/admin/queues", { headers });
      expect(r.status, JSON.stringify(headers)).toBe(401);
      expect(r.headers.get("www-authenticate")).toMatch(/^Basic /);
      expect(r.body).toEqual({ code: "UNAUTHORIZED", message: expect.any(String) });
    }
    // The board's API behind it too.
    expect((await request(api.url, "GET", "/admin/queues/api/queues")).status).toBe(401);
  });

  it("shows the board and every queue with the right password", async () => {
    const page = await request(api.url, "GET", "/admin/queues", { headers: basic("admin", ADMIN_TOKEN) });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/text\/html/);
    expect(page.text).toContain('<base href="/admin/queues/"');
    // Nothing from another host (its Google Fonts link is dropped: a system font instead).
    expect(page.text).not.toMatch(/(?:src|href)="(?:https?:)?\/\//);
    const queues = await request(api.url, "GET", "/admin/queues/api/queues", { headers: basic("admin", ADMIN_TOKEN) });
    expect(queues.status).toBe(200);
    const { QUEUE_NAMES } = await import("../../src/infra/queues.js");
    expect((queues.body.queues as { name: string }[]).map((q) => q.name).sort()).toEqual([...QUEUE_NAMES].sort());
    // Its script is served (from @bull-board/ui, on this server).
    const script = /src="(static\/js\/main[^"]+)"/.exec(page.text)![1]!;
    expect((await request(api.url, "GET", `/admin/queues/${script}`, { headers: basic("admin", ADMIN_TOKEN) })).status).toBe(200);
  });
});

/** Every local file a GraphiQL page names (attributes and quoted paths in its scripts). */
function localFiles(html: string): string[] {
  const found = new Set<string>();
  for (const m of html.matchAll(/(?:src|href)="([^"]+)"/g)) found.add(m[1]!);
  for (const m of html.matchAll(/"(\/graphiql\/[^"]+)"/g)) found.add(m[1]!);
  return [...found];
}

describe("GraphiQL (on by default)", () => {
  it("is served with every file from this server, none from another host", async () => {
    const page = await request(api.url, "GET", "/graphql", { headers: { accept: "text/html" } });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/text\/html/);
    // The options as a data block, started by the page's own script (no inline script: src/http/pages.ts).
    expect(page.text).toContain('<script type="application/json" id="graphiql-options">');
    // No absolute URL at all: nothing is fetched from unpkg or any other host.
    expect(page.text).not.toMatch(/(?:https?:)?\/\/[a-z0-9.-]+\.[a-z]{2,}/i);
    const files = localFiles(page.text);
    expect(files.filter((f) => f.endsWith(".js")).length).toBe(5); // GraphiQL, the page's script and Monaco's three workers
    const start = files.find((f) => /\/page-[0-9a-f]{16}\.js$/.test(f))!;
    expect(await (await fetch(`${api.url}${start}`)).text()).toContain("YogaGraphiQL.renderYogaGraphiQL");
    expect(files.some((f) => f.endsWith(".css"))).toBe(true);
    for (const file of files) {
      expect(file.startsWith("/"), file).toBe(true);
      const r = await fetch(`${api.url}${file}`);
      expect(r.status, file).toBe(200);
      const body = Buffer.from(await r.arrayBuffer());
      expect(body.length, file).toBeGreaterThan(1000);
      const type = r.headers.get("content-type") ?? "";
      if (file.endsWith(".js")) expect(type, file).toMatch(/javascript/);
      if (file.endsWith(".css")) {
        expect(type, file).toMatch(/text\/css/);
        // The style sheet pulls nothing from elsewhere either.
        expect(body.toString("utf8")).not.toMatch(/@import|url\(\s*["']?(?:https?:)?\/\//);
      }
    }
  });

  it("answers 404 for a file it does not have", async () => {
    expect((await request(api.url, "GET", "/graphiql/0.0.0/yoga-graphiql.js")).status).toBe(404);
    const page = await request(api.url, "GET", "/graphql", { headers: { accept: "text/html" } });
    const base = /"(\/graphiql\/[^/]+)\//.exec(page.text)![1]!;
    expect((await request(api.url, "GET", `${base}/secrets.js`)).status).toBe(404);
  });
});

describe("ADMIN_TOKEN unset, GRAPHIQL=false", () => {
  let plain: ServiceProcess;
  beforeAll(async () => {
    plain = await spawnService("api", { ADMIN_TOKEN: "", GRAPHIQL: "false" });
  });
  afterAll(() => plain?.stop());

  it("has no queue board: 404, whatever the credentials", async () => {
    for (const headers of [{}, basic("admin", ADMIN_TOKEN), basic("admin", "")]) {
      const r = await request(plain.url!, "GET", "/admin/queues", { headers });
      expect(r.status).toBe(404);
      expect(r.body.code).toBe("NOT_FOUND");
    }
    expect((await request(plain.url!, "GET", "/admin/queues/api/queues")).status).toBe(404);
  });

  it("serves no GraphiQL page nor its files", async () => {
    const page = await request(plain.url!, "GET", "/graphql", { headers: { accept: "text/html" } });
    expect(page.text).not.toContain("graphiql-options");
    const onPage = await request(api.url, "GET", "/graphql", { headers: { accept: "text/html" } });
    const file = /"(\/graphiql\/[^"]+\.js)"/.exec(onPage.text)![1]!;
    expect((await request(plain.url!, "GET", file)).status).toBe(404);
  });
});
