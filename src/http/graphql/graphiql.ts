/**
 * GraphiQL (GET /graphql from a browser), served entirely by this server: it works on a machine with
 * no internet. Yoga's built-in page loads GraphiQL from unpkg; @graphql-yoga/render-graphiql ships
 * the same build (script, style, Monaco's workers, icon) inside the npm package but inlines all of it
 * (about 9 MB) into every page. Here the page is small and references those files on a local,
 * versioned path (GRAPHIQL_ASSETS), served from the package with a year's cache. GRAPHIQL=false
 * turns both off (src/http/graphql/yoga.ts, src/http/app.ts).
 */
import { createRequire } from "node:module";
import express, { type Request, type Response } from "express";
import type { GraphiQLOptions } from "graphql-yoga";

const version = (createRequire(import.meta.url)("@graphql-yoga/render-graphiql/package.json") as { version: string }).version;

/** Where the page's files are served (by Express, src/http/app.ts). */
export const GRAPHIQL_ASSETS = `/graphiql/${version}`;

interface Asset {
  type: string;
  body: (bundle: typeof import("@graphql-yoga/render-graphiql/graphiql")) => string | Buffer;
}

const ASSETS: Record<string, Asset> = {
  "yoga-graphiql.js": { type: "text/javascript; charset=utf-8", body: (b) => b.js },
  "graphiql.css": { type: "text/css; charset=utf-8", body: (b) => b.css },
  "editor.worker.js": { type: "text/javascript; charset=utf-8", body: (b) => b.editorWorkerService },
  "json.worker.js": { type: "text/javascript; charset=utf-8", body: (b) => b.jsonWorker },
  "graphql.worker.js": { type: "text/javascript; charset=utf-8", body: (b) => b.graphqlWorker },
  "favicon.ico": { type: "image/x-icon", body: (b) => Buffer.from(b.favicon.replace(/^data:[^,]*;base64,/, ""), "base64") },
};

/** JSON inside a <script>: no `</script>` or `<!--` can end it. */
const scriptJson = (value: unknown) => JSON.stringify(value ?? {}).replace(/</g, "\\u003c");

/** Yoga's `renderGraphiQL`: the page, with every file from GRAPHIQL_ASSETS. */
export function renderGraphiQL(opts: GraphiQLOptions): string {
  const title = String(opts?.title ?? "GraphiQL").replace(/[<>&"]/g, "");
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>${title}</title>
    <link rel="icon" href="${GRAPHIQL_ASSETS}/favicon.ico" />
    <link rel="stylesheet" href="${GRAPHIQL_ASSETS}/graphiql.css" />
  </head>
  <body id="body" class="no-focus-outline">
    <noscript>You need to enable JavaScript to run GraphiQL.</noscript>
    <div id="root"></div>
    <script>
      const workers = {
        editorWorkerService: "${GRAPHIQL_ASSETS}/editor.worker.js",
        json: "${GRAPHIQL_ASSETS}/json.worker.js",
        graphql: "${GRAPHIQL_ASSETS}/graphql.worker.js",
      };
      self.MonacoEnvironment = { globalAPI: false, getWorkerUrl: (_moduleId, label) => workers[label] };
    </script>
    <script src="${GRAPHIQL_ASSETS}/yoga-graphiql.js"></script>
    <script>
      YogaGraphiQL.renderYogaGraphiQL(document.querySelector("#root"), ${scriptJson(opts)});
    </script>
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
