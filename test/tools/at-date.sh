#!/usr/bin/env bash
# Runs the test suite as if it were another day: `test/tools/at-date.sh "2028-02-29 12:00:00Z" [vitest arguments]`.
#
# A test whose outcome depends on the day it runs (the day of the month, a month's length, a leap day, a clock change)
# fails in CI on some days only. This moves the clocks of the run by libfaketime (Debian's `faketime`, an offset from
# the real clock, so every process agrees and time still runs): vitest and the processes the tests spawn (the service's
# entry points, programs) and this run's own PostgreSQL, started for it under a folder of its own. Redis keeps the real
# clock (libfaketime and Redis' allocator do not get along): the service reads time from Node.js and PostgreSQL only,
# Redis counts durations (TTLs), which the offset does not change. Chromium's browser tests are left out (Chromium will
# not start under libfaketime either), and so are the Redis Cluster test and the local services test (they start
# redis-server processes of their own, which time out under libfaketime).
#
# Not part of `npm test`: run it before a release, at the start, middle and end of a month and on 29 February
# (README, "Tests").
set -euo pipefail
cd "$(dirname "$0")/../.."

at="${1:?usage: test/tools/at-date.sh "YYYY-MM-DD hh:mm:ssZ" [vitest arguments]}"
shift
offset=$(($(date -d "$at" +%s) - $(date +%s)))
dir=$(mktemp -d /tmp/at-date.XXXXXX)
chmod 755 "$dir"
redis_port=$((20000 + RANDOM % 1000))
redis-server --port "$redis_port" --bind 127.0.0.1 --save "" --appendonly no --daemonize yes --dir "$dir" --logfile "$dir/redis.log"
trap 'redis-cli -p "$redis_port" shutdown nosave >/dev/null 2>&1 || true; rm -rf "$dir"' EXIT

echo "== the suite at $(date -u -d "@$(($(date +%s) + offset))" '+%Y-%m-%d %H:%M:%S') UTC (clocks moved by ${offset} s); its PostgreSQL under $dir"
unset DATABASE_URL TEST_ADMIN_DATABASE_URL
REDIS_URL="redis://127.0.0.1:$redis_port" LOCAL_SERVICES=always LOCAL_SERVICES_DIR="$dir" \
  faketime -f "+${offset}" npx vitest run --exclude 'test/web/**' --exclude 'test/reports/shared-page.test.ts' --exclude 'test/mail/flow.test.ts' \
  --exclude 'test/operations/redis-cluster.test.ts' --exclude 'test/operations/local-services.test.ts' "$@"
