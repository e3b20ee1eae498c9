/**
 * The layer rule of docs/architecture.md, checked by test/architecture/layers.test.ts (and
 * `npx depcruise src`). The only arrows: doors (src/http) → domain; jobs → domain; providers →
 * the domain's ports and shared vocabulary; domain → infra; within the domain, each area → the areas
 * listed before it (domain/shared first); no door imports another door's folder;
 * src/main (the composition root) and src/cli (an entry point) may use anything; src/ and the
 * dashboard (web/) import nothing of each other; inside the dashboard, each folder imports only the floors below
 * it and no two folders import each other. Paths are relative to the project root.
 */
const { readFileSync } = require("node:fs");
const { join } = require("node:path");

/**
 * The areas of src/domain, lowest first: the numbered list under "### The domain's areas, lowest first" in
 * docs/architecture.md, read from there so the order is written once.
 */
function domainAreas() {
  const doc = readFileSync(join(__dirname, "docs/architecture.md"), "utf8").split("\n");
  const start = doc.findIndex((line) => line.startsWith("### The domain's areas, lowest first"));
  const areas = [];
  for (const line of doc.slice(start + 1)) {
    const item = /^\d+\. `([a-z-]+)`/.exec(line);
    if (item) areas.push(item[1]);
    else if (areas.length > 0) break;
  }
  if (start < 0 || areas.length < 2) throw new Error("docs/architecture.md states no order of the domain's areas");
  return areas;
}

/** One rule per area: it imports no area listed after it. */
function areasInOrder(areas) {
  return areas.slice(0, -1).map((area, i) => ({
    name: "areas-in-order",
    comment:
      `An area imports only the areas listed before it in docs/architecture.md ("The domain's areas, lowest first"): ${area} ` +
      "may not import " + areas.slice(i + 1).join(", ") + ". A lower area that needs a higher one's work is handed it, or the shared part moves down.",
    severity: "error",
    from: { path: `^src/domain/${area}/` },
    to: { path: `^src/domain/(${areas.slice(i + 1).join("|")})/` },
  }));
}

const AREAS = domainAreas();

/**
 * The dashboard's floors (web/src), the ground first: each folder imports only the folders below it (and
 * __generated__, styles), never one above; main.tsx, the entry, stands above them all. What pages need of the
 * app (URLs, the chosen workspace) lives below them: lib/paths.ts, relay/workspace.ts.
 */
const DASHBOARD_FLOORS = ["lib", "relay", "components", "pickers", "pages", "app"];
const dashboardFloors = DASHBOARD_FLOORS.slice(0, -1).map((floor, i) => ({
  name: `dashboard-${floor}-imports-downward`,
  comment:
    `web/src/${floor}/ imports only the floors below it (${DASHBOARD_FLOORS.slice(0, i).join(", ") || "none"}), never ` +
    `${DASHBOARD_FLOORS.slice(i + 1).join(", ")} or main.tsx: a lower floor knows nothing of what stands on it.`,
  severity: "error",
  from: { path: `^web/src/${floor}/` },
  to: { path: `^web/src/(${DASHBOARD_FLOORS.slice(i + 1).join("|")})/|^web/src/main\\.tsx$` },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...areasInOrder(AREAS),
    {
      name: "every-area-in-the-order",
      comment: "Every folder of src/domain has its place in the order of docs/architecture.md (\"The domain's areas, lowest first\").",
      severity: "error",
      from: { path: `^src/domain/(?!(${AREAS.join("|")})/)` },
      to: { path: "^src/domain/" },
    },
    ...dashboardFloors,
    {
      name: "dashboard-folders-no-circle",
      comment:
        "No circle between the dashboard's folders (web/src/pages/folder → pages/folders → pages/folder …): two folders that import " +
        "each other are one area in two places. What both need moves down (components/, pickers/, lib/) or into one of them.",
      severity: "error",
      scope: "folder",
      from: { path: "^web/src/" },
      to: { circular: true },
    },
    {
      name: "domain-is-inward",
      comment: "The domain knows no door, no job runner, no provider and no entry point: it declares ports and takes providers as arguments.",
      severity: "error",
      from: { path: "^src/domain/" },
      to: { path: "^src/(http|jobs|providers|main|cli)/" },
    },
    {
      name: "no-circular",
      comment:
        "No import circles (type-only imports included): a module and what it imports can be read, tested and loaded in one direction. " +
        "An area's publishers (events.ts) stay below its use cases, its streams (watch.ts) above them.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "infra-is-a-leaf",
      comment: "Infrastructure (database, Redis, queues, events, logs) knows nothing of the service's rules or doors.",
      severity: "error",
      from: { path: "^src/infra/" },
      to: { path: "^src/(domain|http|jobs|providers|main|cli)/" },
    },
    {
      name: "providers-implement-ports",
      comment:
        "Providers see only the ports the domain declares (domain/<area>/ports.ts), the words those ports speak (domain/<area>/vocabulary.ts) " +
        "and the shared vocabulary (domain/shared/).",
      severity: "error",
      from: { path: "^src/providers/" },
      to: { path: "^src/(domain/(?!shared/|[^/]+/(ports|vocabulary)\\.ts$)|http|jobs|main|cli|infra/(db|queues|events|redis))" },
    },
    {
      name: "doors-go-through-the-domain",
      comment: "REST and GraphQL call the domain: never the database, Redis, the queues, the job runner or a provider directly.",
      severity: "error",
      from: { path: "^src/http/" },
      to: { path: "^src/(jobs|providers|main|cli|generated|infra/(db|queues|events|redis))" },
    },
    {
      name: "doors-stand-apart",
      comment:
        "A door (REST, GraphQL, MCP, /auth, the operations doors) never imports another door's folder: what several doors share lives in " +
        "src/http/ itself (records/, errors.ts, middleware.ts, who-is-asking.ts, request-context.ts, pages.ts). Only src/http/app.ts and the entry points assemble the doors.",
      severity: "error",
      from: { path: "^src/http/(rest|graphql|mcp|admin|auth|shared-report)/" },
      to: { path: "^src/http/(rest|graphql|mcp|admin|auth|shared-report)/", pathNot: "^src/http/$1/" },
    },
    {
      name: "jobs-are-wiring",
      comment: "Job handlers call the domain's job bodies; providers reach them from the composition root.",
      severity: "error",
      from: { path: "^src/jobs/" },
      to: { path: "^src/(http|providers|main|cli)/" },
    },
    {
      name: "the-server-never-imports-the-dashboard",
      comment: "The dashboard (web/) is a client with its own build: the service serves its built files (src/http/dashboard.ts) and imports none of its code.",
      severity: "error",
      from: { path: "^src/" },
      to: { path: "^web/" },
    },
    {
      name: "the-dashboard-is-a-client",
      comment: "The dashboard talks to the service over GraphQL and /auth only; it reads nothing of src/ (its one input from the server is the printed schema.graphql).",
      severity: "error",
      from: { path: "^web/" },
      to: { path: "^(src|test|bench|prisma)/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^src/generated/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".tsx", ".js"] },
  },
};
