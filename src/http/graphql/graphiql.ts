/**
 * GraphiQL (GET /graphql from a browser), served entirely by this server: it works on a machine with
 * no internet. Yoga's built-in page loads GraphiQL from unpkg; @graphql-yoga/render-graphiql ships
 * the same build (script, style, Monaco's workers, icon) inside the npm package but inlines all of it
 * (about 9 MB) into every page. Here the page is small and references those files on a local,
 * versioned path (GRAPHIQL_ASSETS), served from the package with a year's cache. GRAPHIQL=false
 * turns both off (src/http/graphql/yoga.ts, src/http/app.ts).
 *
 * GraphiQL for people (`graphiqlOptionsFor`): a person signed in to the dashboard (its session cookie
 * comes with the page's requests, same origin) gets a GraphiQL that works at once with that session:
 * every request carries `x-requested-with` (the CSRF rule of src/http/who-is-asking.ts) and the
 * workspace chosen in the dashboard (`x-workspace-id`, read from the browser's storage as
 * web/src/relay/workspace.ts keeps it), so introspection fills the docs explorer. Anyone else finds
 * an `Authorization: Bearer …` template in the Headers tab, with where to get a key.
 *
 * The page is one of the service's pages (src/http/pages.ts): it may not be framed by another page
 * (clickjacking), it is never cached (it names the person), and its Content-Security-Policy
 * (`PAGE_POLICY.graphiql`, set by `graphiqlOptionsFor`) lets it run only this origin's files. A
 * mutation pre-filled from a link (`?query=`) runs only after the person confirms it in words
 * (./graphiql-page.js).
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createRequire } from "node:module";
import express, { type Request, type Response } from "express";
import type { GraphiQLOptions } from "graphql-yoga";
import { encodeGlobalID } from "@pothos/plugin-relay";
import { logger } from "../../infra/logger.ts";
import { PAGE_POLICY } from "../pages.ts";
import { whoIsAsking } from "../who-is-asking.ts";

const version = (createRequire(import.meta.url)("@graphql-yoga/render-graphiql/package.json") as { version: string }).version;

/** Where the page's files are served (by Express, src/http/app.ts). */
export const GRAPHIQL_ASSETS = `/graphiql/${version}`;

interface Asset {
  type: string;
  body: (bundle: typeof import("@graphql-yoga/render-graphiql/graphiql")) => string | Buffer;
}

/**
 * The page's own script (./graphiql-page.js: starts GraphiQL, guards a link's mutation), named by its
 * content's hash so that it can be cached as long as the package's files and a new version is a new name.
 */
const PAGE_SCRIPT = (() => {
  const body = readFileSync(new URL("./graphiql-page.js", import.meta.url), "utf8");
  return { name: `page-${createHash("sha256").update(body).digest("hex").slice(0, 16)}.js`, body };
})();

const ASSETS: Record<string, Asset> = {
  [PAGE_SCRIPT.name]: { type: "text/javascript; charset=utf-8", body: () => PAGE_SCRIPT.body },
  "yoga-graphiql.js": { type: "text/javascript; charset=utf-8", body: (b) => b.js },
  "graphiql.css": { type: "text/css; charset=utf-8", body: (b) => b.css },
  "editor.worker.js": { type: "text/javascript; charset=utf-8", body: (b) => b.editorWorkerService },
  "json.worker.js": { type: "text/javascript; charset=utf-8", body: (b) => b.jsonWorker },
  "graphql.worker.js": { type: "text/javascript; charset=utf-8", body: (b) => b.graphqlWorker },
  "favicon.ico": { type: "image/x-icon", body: (b) => Buffer.from(b.favicon.replace(/^data:[^,]*;base64,/, ""), "base64") },
};

/** JSON inside a <script>: no `</script>` or `<!--` can end it. */
const scriptJson = (value: unknown) => JSON.stringify(value ?? {}).replace(/</g, "\\u003c");

/** GraphiQL's options, and what the page itself needs of a signed-in person. */
export interface GraphiQLPage extends GraphiQLOptions {
  /**
   * The values of `x-workspace-id` that name one of the signed-in person's workspaces (global IDs
   * and UUIDs): the dashboard's stored choice is sent only when it is one of them (a stale choice
   * would make every request NOT_FOUND; without it the session's last choice applies).
   */
  sessionWorkspaces?: string[];
}

/** Where the dashboard keeps the chosen workspace (web/src/relay/workspace.ts, STORAGE_KEY). */
const DASHBOARD_WORKSPACE_KEY = "dashboard.workspaceId";

const SIGNED_OUT_HEADERS = `{
  // GraphQL needs an API key: create one in the dashboard (/settings: Settings → API keys)
  // and paste it after "Bearer ". Signed in to the dashboard, reload this page to use your session instead.
  "Authorization": "Bearer <your API key>"
}`;

const SIGNED_OUT_QUERY = `# Every request needs an API key: open the Headers tab below and replace <your API key>
# with a key made in the dashboard (Settings → API keys). Or sign in to the dashboard at /
# and reload this page: GraphiQL then uses your session.
query Workspace {
  workspace {
    plan
  }
}
`;

function signedInHeaders(email: string): string {
  return `{
  // Signed in to the dashboard as ${email.replace(/[\r\n]/g, "")}: requests use your session, in the workspace chosen there.
  // An "Authorization": "Bearer <API key>" header here would use that key instead.
}`;
}

function signedInQuery(email: string): string {
  return `# Signed in to the dashboard as ${email.replace(/[\r\n]/g, "")}: queries run with your session, in the
# workspace chosen in the dashboard. The Docs button lists every type and field.
query Me {
  viewer {
    email
    currentWorkspace {
      name
      role
    }
  }
}
`;
}

/**
 * Yoga's GraphiQL options for this request: with the session of a person signed in to the
 * dashboard, or with the Authorization template for anyone else. Reading the session spends no
 * request of the person's budget; a failure to read it shows the signed-out page. The page's
 * Content-Security-Policy goes on `res` (Yoga answers with the Node response's headers kept).
 */
export async function graphiqlOptionsFor(req: IncomingMessage | undefined, res?: ServerResponse): Promise<GraphiQLPage> {
  res?.setHeader("Content-Security-Policy", PAGE_POLICY.graphiql);
  const base: GraphiQLPage = { title: "GraphiQL · Video tracker", subscriptionsProtocol: "WS" };
  const asker = req
    ? await whoIsAsking(req, { count: false }).catch(
        (e: unknown) => (logger.debug({ err: (e as Error).message }, "GraphiQL: no session"), null),
      )
    : null;
  const person = asker?.person;
  if (!person) return { ...base, headers: SIGNED_OUT_HEADERS, defaultHeaders: SIGNED_OUT_HEADERS, defaultQuery: SIGNED_OUT_QUERY };
  const email = person.person.email;
  return {
    ...base,
    headers: signedInHeaders(email),
    defaultHeaders: signedInHeaders(email),
    defaultQuery: signedInQuery(email),
    additionalHeaders: { "x-requested-with": "dashboard" },
    sessionWorkspaces: person.memberships.flatMap((m) => [encodeGlobalID("Workspace", m.workspaceId), m.workspaceId]),
  };
}

/**
 * Yoga's `renderGraphiQL`: the page, with every file from GRAPHIQL_ASSETS. No inline script (its
 * Content-Security-Policy, src/http/pages.ts, runs files of this origin only): the options are a JSON
 * data block that the page's own script (PAGE_SCRIPT, ./graphiql-page.js) reads to start GraphiQL.
 */
export function renderGraphiQL(page: GraphiQLPage): string {
  const { sessionWorkspaces, ...opts } = page;
  const title = String(opts?.title ?? "GraphiQL").replace(/[<>&"]/g, "");
  const data = {
    options: opts,
    workspaces: sessionWorkspaces ?? [],
    workspaceStorageKey: DASHBOARD_WORKSPACE_KEY,
    workers: {
      editorWorkerService: `${GRAPHIQL_ASSETS}/editor.worker.js`,
      json: `${GRAPHIQL_ASSETS}/json.worker.js`,
      graphql: `${GRAPHIQL_ASSETS}/graphql.worker.js`,
    },
  };
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>${title}</title>
    <link rel="icon" href="${GRAPHIQL_ASSETS}/favicon.ico" />
    <link rel="stylesheet" href="${GRAPHIQL_ASSETS}/graphiql.css" />
    <script defer src="${GRAPHIQL_ASSETS}/yoga-graphiql.js"></script>
    <script defer src="${GRAPHIQL_ASSETS}/${PAGE_SCRIPT.name}"></script>
  </head>
  <body id="body" class="no-focus-outline">
    <noscript>You need to enable JavaScript to run GraphiQL.</noscript>
    <div id="root"></div>
    <script type="application/json" id="graphiql-options">${scriptJson(data)}</script>
  </body>
</html>`;
}

/** The page's files, from the npm package (loaded on the first request: about 9 MB of strings). */
export function graphiqlAssets(): express.Router {
  let bundle: Promise<typeof import("@graphql-yoga/render-graphiql/graphiql")> | null = null;
  const cache = new Map<string, string | Buffer>();
  const router = express.Router();
  router.get("/:file", async (req: Request, res: Response, next) => {
    const file = String(req.params.file);
    const asset = Object.hasOwn(ASSETS, file) ? ASSETS[file] : undefined;
    if (!asset) return next();
    let body = cache.get(file);
    if (body === undefined) {
      bundle ??= import("@graphql-yoga/render-graphiql/graphiql");
      body = asset.body(await bundle);
      cache.set(file, body);
    }
    res.setHeader("Content-Type", asset.type);
    res.setHeader("Cache-Control", "public, max-age=31536000, immutable");
    res.send(body);
  });
  return router;
}
