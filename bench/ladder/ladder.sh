#!/usr/bin/env bash
# Perf ladder: floor / REST / GraphQL / GraphQL nested / GraphQL with a session cookie / PostGraphile 5 / GraphQL floor (Mercurius + jit) / yoga floor, one database, one run.
# Usage: ./ladder.sh            (env: PERF_ROUNDS=3 PERF_SECONDS=10 PERF_WARMUP=2 PERF_DB=perfladder_bench PG5_DIR=/tmp/pg5 GQLFLOOR_DIR=/tmp/gqlfloor)
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
export PROJECT_DIR="${PROJECT_DIR:-$(cd "$HERE/../.." && pwd)}"
export PG5_DIR="${PG5_DIR:-/tmp/pg5}"
if [ ! -f "$PG5_DIR/node_modules/postgraphile/package.json" ]; then
  mkdir -p "$PG5_DIR" && (cd "$PG5_DIR" && { [ -f package.json ] || npm init -y >/dev/null; } && npm install --no-audit --no-fund postgraphile@5 pg >/dev/null)
fi
export GQLFLOOR_DIR="${GQLFLOOR_DIR:-/tmp/gqlfloor}"
if [ ! -f "$GQLFLOOR_DIR/node_modules/mercurius/package.json" ]; then
  mkdir -p "$GQLFLOOR_DIR" && (cd "$GQLFLOOR_DIR" && { [ -f package.json ] || npm init -y >/dev/null; } && npm install --no-audit --no-fund fastify@5 mercurius@16 graphql@16 pg >/dev/null)
fi
# The project's own Node (Node 24, from npm's node package) when it has one, for the harness and every rung.
NODE="$PROJECT_DIR/node_modules/.bin/node"
[ -x "$NODE" ] || NODE=node
exec "$NODE" "$HERE/ladder.mjs"
