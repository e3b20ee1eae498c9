/**
 * `npm run bench -- ladder`: the side-by-side HTTP ladder (bench/ladder/, adapted from the team's
 * shared ladder): a bare node:http + pg floor, REST GET /videos, GraphQL videos(first: 20), the same
 * with each video's account, PostGraphile 5, and three floors (Fastify + Mercurius + graphql-jit,
 * bare graphql-yoga + graphql-jit, Express with one route) on the same database, measured interleaved
 * in one run. Its markdown table becomes the `ladder` section of bench/RESULTS.md (every run is also
 * appended to bench/ladder/results.md). Settings: see bench/ladder/README.md (PERF_ROUNDS …).
 */
import { spawnSync } from "node:child_process";

import { fileURLToPath } from "node:url";
import { writeSection } from "./lib/results.js";

const dir = fileURLToPath(new URL("./ladder/", import.meta.url));
const run = spawnSync("bash", [`${dir}ladder.sh`], { stdio: ["ignore", "pipe", "inherit"], env: process.env, encoding: "utf8" });
process.stdout.write(run.stdout);
if (run.status !== 0) process.exit(run.status ?? 1);
const markdown = run.stdout.slice(run.stdout.indexOf("## Run "));
const command =
  "Command: `npm run bench -- ladder` (bench/ladder/ladder.sh; PostGraphile 5 is installed in /tmp/pg5, Fastify + Mercurius in /tmp/gqlfloor, from the npm registry when missing).";
await writeSection(
  "ladder",
  `## HTTP ladder: floor, REST, GraphQL, GraphQL nested, PostGraphile 5, GraphQL/yoga/Express floors\n\n${command}\n\n${markdown.replace(/^## Run /, "Run ")}`,
);
