/**
 * Clickjacking, in Chromium: a page on another loopback port of the same host (same
 * site, so SameSite=Lax still sends the session cookie to a frame it opens) frames GraphiQL, pre-filled
 * with a `changeMemberRole` mutation, and the dashboard; the browser must refuse both frames (the page
 * headers of src/http/pages.ts: `frame-ancestors 'none'`, X-Frame-Options). Opened directly from such a
 * link, GraphiQL runs the mutation only once the person confirms it, shown in words
 * (src/http/graphql/graphiql-page.js); and GraphiQL's Content-Security-Policy (this origin's files only)
 * breaks nothing: no violation is reported while it loads and runs an operation.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { encodeGlobalID } from "@pothos/plugin-relay";
import { prisma } from "../../src/infra/db.js";
import type { RunningApi } from "../../src/main/server.js";
import { newWorkspace, startTestApi, stopAll } from "../helpers/api.js";
import { PASSWORD, newPerson } from "../helpers/people.js";
import { dashboardContext, launchBrowser, pageErrors, signIn } from "./harness.js";

const OWNER = "owner@framing.example";
const MEMBER = "member@framing.example";

let api: RunningApi;
let browser: Browser;
let framer: Server;
let framerUrl: string;
let context: BrowserContext;
let page: Page;
let workspaceId: string;
let memberId: string;

/** The attack's document: make the member an owner. */
const promote = () =>
  `mutation PromoteMe {\n  changeMemberRole(id: "${encodeGlobalID("Member", memberId)}", role: OWNER) {\n    role\n  }\n}`;
const graphiqlLink = () => `/graphql?query=${encodeURIComponent(promote())}`;

/** The member's role now, from the database. */
/** GraphiQL's answer pane, its spaces as spaces (Monaco draws no-break spaces). */
const answer = async (g: Page) => ((await g.locator(".graphiql-response").textContent()) ?? "").replace(/\s+/g, " ");

const memberRole = async () => (await prisma.workspaceMember.findUniqueOrThrow({ where: { id: memberId } })).role;

beforeAll(async () => {
  [api, browser] = await Promise.all([startTestApi(), launchBrowser()]);
  ({ workspaceId } = await newWorkspace("free", "Framed"));
  await newPerson(OWNER, workspaceId, "owner");
  const { userId } = await newPerson(MEMBER, workspaceId, "member");
  memberId = (await prisma.workspaceMember.findFirstOrThrow({ where: { workspaceId, userId } })).id;
  // The attacker's page: another port of the same loopback host.
  framer = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(`<!doctype html><title>Win a prize</title>
      <iframe id="graphiql" src="${api.url}${graphiqlLink()}" width="900" height="600"></iframe>
      <iframe id="dashboard" src="${api.url}/settings/members" width="900" height="600"></iframe>`);
  });
  await new Promise<void>((resolve) => framer.listen(0, "127.0.0.1", resolve));
  framerUrl = `http://127.0.0.1:${(framer.address() as AddressInfo).port}/`;
  context = await dashboardContext(browser, { baseURL: api.url });
  page = await context.newPage();
  await signIn(page, OWNER, PASSWORD);
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => framer?.close(resolve));
  await stopAll(api);
});

describe("framing by another page", () => {
  it("a page on another port of the host cannot frame GraphiQL (with a mutation in its link) or the dashboard", async () => {
    expect(new URL(framerUrl).port).not.toBe(new URL(api.url).port);
    const attacker = await context.newPage();
    const refusals: string[] = [];
    attacker.on("console", (m) => {
      if (/frame-ancestors|X-Frame-Options/i.test(m.text())) refusals.push(m.text());
    });
    await attacker.goto(framerUrl, { waitUntil: "load" });
    for (const id of ["graphiql", "dashboard"]) {
      const frame = await (await attacker.$(`#${id}`))!.contentFrame();
      // A frame the browser refused shows its error page: nothing of the service is in it.
      await expect.poll(() => frame!.url(), { timeout: 15_000 }).not.toContain(api.url);
      const text = await frame!.evaluate(() => document.body?.innerText ?? "").catch(() => "");
      expect(text).not.toContain("GraphiQL");
      expect(text).not.toContain("Members");
    }
    await expect.poll(() => refusals.length, { timeout: 5_000 }).toBeGreaterThanOrEqual(2);
    expect(refusals.join("\n")).toContain("frame-ancestors 'none'");
    expect(await memberRole()).toBe("member");
    await attacker.close();
  });
});

describe("a mutation from a link", () => {
  it("GraphiQL opened with a mutation in ?query= runs it only after the person confirms it in words; its policy reports no violation", async () => {
    const g = await context.newPage();
    g.setDefaultTimeout(45_000);
    const errors = pageErrors(g);
    await g.goto(graphiqlLink(), { timeout: 60_000 });
    const run = g.getByRole("button", { name: /Execute query/i });
    await run.waitFor();
    // The editor holds the link's document.
    await expect
      .poll(async () => (await g.locator(".graphiql-query-editor .view-lines").innerText()).replace(/\s+/g, " "), { timeout: 30_000 })
      .toContain("changeMemberRole");

    // Cancelled: nothing runs, and GraphiQL says so.
    const asked: string[] = [];
    g.once("dialog", (d) => {
      asked.push(d.message());
      void d.dismiss();
    });
    await run.click();
    await expect.poll(() => answer(g), { timeout: 20_000 }).toContain("Not run");
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain("mutation PromoteMe");
    expect(asked[0]).toContain("changeMemberRole");
    expect(asked[0]).toContain("link");
    expect(await memberRole()).toBe("member");

    // A later visit with no link: GraphiQL keeps the linked document as a tab, and running it still asks.
    const later = await context.newPage();
    await later.goto("/graphql", { timeout: 60_000 });
    await later.getByRole("button", { name: /Execute query/i }).waitFor();
    const askedLater: string[] = [];
    later.once("dialog", (d) => {
      askedLater.push(d.message());
      void d.dismiss();
    });
    const fromTab = await later.evaluate(
      (query) =>
        fetch("/graphql", {
          method: "POST",
          headers: { "content-type": "application/json", "x-requested-with": "graphiql" },
          body: JSON.stringify({ query }),
        }).then((r) => r.text()),
      promote(),
    );
    expect(askedLater).toHaveLength(1);
    expect(fromTab).toContain("Not run");
    expect(await memberRole()).toBe("member");
    await later.close();

    // Confirmed: it runs, as the person chose.
    g.once("dialog", (d) => void d.accept());
    await run.click();
    await expect.poll(() => answer(g), { timeout: 20_000 }).toContain("OWNER");
    expect(await memberRole()).toBe("owner");

    // The page's Content-Security-Policy (this origin's files, Monaco's styles) blocked nothing it needs.
    expect(errors.filter((e) => /Content Security Policy|Refused to/i.test(e))).toEqual([]);
    await g.close();
  });

  it("a query from a link runs at once, without a question", async () => {
    const g = await context.newPage();
    g.setDefaultTimeout(45_000);
    let asked = 0;
    g.on("dialog", (d) => {
      asked++;
      void d.dismiss();
    });
    await g.goto(`/graphql?query=${encodeURIComponent("query Who { viewer { email } }")}`, { timeout: 60_000 });
    await expect
      .poll(async () => (await g.locator(".graphiql-query-editor .view-lines").innerText()).replace(/\s+/g, " "), { timeout: 30_000 })
      .toContain("viewer");
    await g.getByRole("button", { name: /Execute query/i }).click();
    await expect.poll(() => answer(g), { timeout: 20_000 }).toContain(OWNER);
    expect(asked).toBe(0);
    await g.close();
  });
});
