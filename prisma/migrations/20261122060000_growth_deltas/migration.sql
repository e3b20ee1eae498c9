-- Growth (issue 4): the workspace totals by day, kept by the database so GET /analytics/growth reads
-- at most one row per day instead of every tracked account's snapshots.
--
-- The total of a workspace on day D is the sum, over its tracked accounts, of each account's latest
-- snapshot on or before D (null metrics count 0). Written as a running sum: each account changes the
-- total only on the days it has a snapshot, by (snapshot - its previous snapshot). So:
--   account_growth_deltas   one row per account snapshot: that change (the first snapshot: its values).
--   workspace_growth_deltas per workspace and day: the sum of the changes of its tracked accounts that
--                           day, and how many tracked-account snapshots fall on it (rows at 0 are
--                           deleted, so min(day) is the first snapshot day of any tracked account).
--                           No CHECK (snapshots >= 0): PostgreSQL checks the proposed row of an
--                           INSERT ... ON CONFLICT DO UPDATE, which carries a negative change.
-- growth = generate_series over the window + running sum of workspace_growth_deltas.
--
-- Kept exact by statement-level triggers whoever writes (scrapes, the daily snapshot job, cascades,
-- SQL run by an operator):
--   account_snapshots INSERT/UPDATE/DELETE: growth_reconcile_accounts() recomputes the changed accounts'
--     deltas from their earliest changed day on, from the snapshots as they now are, compares them
--     with the stored account deltas, and adds the difference to every workspace tracking the account.
--     Reconciling against the stored deltas (rather than computing from the transition tables) keeps
--     it exact when one statement fires several triggers (INSERT ... ON CONFLICT DO UPDATE fires both
--     the INSERT and the UPDATE trigger) and for several rows of one account in one statement.
--   tracked_accounts INSERT/DELETE (and UPDATE of the pair): growth_apply_tracking() adds/subtracts the
--     account's stored deltas to/from the workspace.
-- Concurrency: both lock the accounts concerned (FOR NO KEY UPDATE, in id order) before reading, so
-- writes touching one account's history are serialised and each trigger, under READ COMMITTED, reads
-- what the previous one committed. Workspace rows are written in (workspace_id, day) order.
-- No foreign keys on purpose: deleting an account cascades to its snapshots and trackings, whose
-- triggers remove the rows (an FK cascade here could remove the account deltas before the tracking
-- trigger subtracts them), and deleting a workspace cascades to its trackings, which zero its rows.
--
-- No semicolon may appear in this file except at the end of a statement (the driver adapter
-- splits the script on every semicolon): inside the PL/pgSQL bodies below, \073 in the E'' string
-- is the statement separator, and '' is a quote.

CREATE TABLE "account_growth_deltas" (
  "account_id" UUID NOT NULL,
  "day" DATE NOT NULL,
  "followers" BIGINT NOT NULL,
  "views" BIGINT NOT NULL,
  "videos" BIGINT NOT NULL,
  CONSTRAINT "account_growth_deltas_pkey" PRIMARY KEY ("account_id", "day")
);

CREATE TABLE "workspace_growth_deltas" (
  "workspace_id" UUID NOT NULL,
  "day" DATE NOT NULL,
  "snapshots" INTEGER NOT NULL,
  "followers" BIGINT NOT NULL,
  "views" BIGINT NOT NULL,
  "videos" BIGINT NOT NULL,
  CONSTRAINT "workspace_growth_deltas_pkey" PRIMARY KEY ("workspace_id", "day")
);

-- Backfill from the existing snapshots and trackings.
INSERT INTO "account_growth_deltas" ("account_id", "day", "followers", "views", "videos")
SELECT "account_id", "day",
       coalesce("follower_count", 0) - lag(coalesce("follower_count", 0), 1, 0::bigint) OVER w,
       coalesce("total_views", 0) - lag(coalesce("total_views", 0), 1, 0::bigint) OVER w,
       coalesce("video_count", 0) - lag(coalesce("video_count", 0), 1, 0::bigint) OVER w
  FROM "account_snapshots"
WINDOW w AS (PARTITION BY "account_id" ORDER BY "day");

INSERT INTO "workspace_growth_deltas" ("workspace_id", "day", "snapshots", "followers", "views", "videos")
SELECT ta."workspace_id", g."day", count(*)::int, sum(g."followers"), sum(g."views"), sum(g."videos")
  FROM "tracked_accounts" ta JOIN "account_growth_deltas" g ON g."account_id" = ta."account_id"
 GROUP BY ta."workspace_id", g."day";

-- The one place that turns snapshots into deltas. p_accounts[i] changed from p_from[i] on (an
-- account may appear several times: its earliest day counts).
CREATE FUNCTION "growth_reconcile_accounts"(p_accounts uuid[], p_from date[]) RETURNS void LANGUAGE plpgsql AS E'
DECLARE
  v_ws uuid[]\073
  v_days date[]\073
BEGIN
  PERFORM 1 FROM accounts WHERE id = ANY (p_accounts) ORDER BY id FOR NO KEY UPDATE\073
  WITH req AS (
    SELECT r.account_id, min(r.from_day) AS from_day FROM unnest(p_accounts, p_from) AS r(account_id, from_day) GROUP BY r.account_id
  ), fresh AS (
    -- The deltas as the snapshots now are, from from_day on: each snapshot minus the one before
    -- (the latest before from_day for the first one, 0 when there is none).
    SELECT req.account_id, d.day, d.f, d.v, d.n
      FROM req
      LEFT JOIN LATERAL (
        SELECT coalesce(s.follower_count, 0) AS f, coalesce(s.total_views, 0) AS v, coalesce(s.video_count, 0) AS n
          FROM account_snapshots s WHERE s.account_id = req.account_id AND s.day < req.from_day ORDER BY s.day DESC LIMIT 1
      ) prev ON true
      CROSS JOIN LATERAL (
        SELECT s.day,
               coalesce(s.follower_count, 0) - lag(coalesce(s.follower_count, 0), 1, coalesce(prev.f, 0)) OVER w AS f,
               coalesce(s.total_views, 0) - lag(coalesce(s.total_views, 0), 1, coalesce(prev.v, 0)) OVER w AS v,
               coalesce(s.video_count, 0) - lag(coalesce(s.video_count, 0), 1, coalesce(prev.n, 0)) OVER w AS n
          FROM account_snapshots s WHERE s.account_id = req.account_id AND s.day >= req.from_day
        WINDOW w AS (ORDER BY s.day)
      ) d
  ), diff AS (
    -- fresh minus stored: c = +1 a new snapshot day, -1 a day without snapshot any more, 0 a change.
    SELECT account_id, day, sum(c)::int AS c, sum(f) AS f, sum(v) AS v, sum(n) AS n
      FROM (
        SELECT account_id, day, 1 AS c, f, v, n FROM fresh
        UNION ALL
        SELECT g.account_id, g.day, -1, -g.followers, -g.views, -g.videos
          FROM req JOIN account_growth_deltas g ON g.account_id = req.account_id AND g.day >= req.from_day
      ) x
     GROUP BY account_id, day
    HAVING sum(c) <> 0 OR sum(f) <> 0 OR sum(v) <> 0 OR sum(n) <> 0
  ), gone AS (
    DELETE FROM account_growth_deltas g USING diff
     WHERE diff.c = -1 AND g.account_id = diff.account_id AND g.day = diff.day
  ), kept AS (
    INSERT INTO account_growth_deltas AS g (account_id, day, followers, views, videos)
    SELECT account_id, day, f, v, n FROM diff WHERE c >= 0 ORDER BY account_id, day
    ON CONFLICT (account_id, day) DO UPDATE SET
      followers = g.followers + EXCLUDED.followers, views = g.views + EXCLUDED.views, videos = g.videos + EXCLUDED.videos
  ), ws AS (
    INSERT INTO workspace_growth_deltas AS w (workspace_id, day, snapshots, followers, views, videos)
    SELECT ta.workspace_id, diff.day, sum(diff.c)::int, sum(diff.f), sum(diff.v), sum(diff.n)
      FROM diff JOIN tracked_accounts ta ON ta.account_id = diff.account_id
     GROUP BY ta.workspace_id, diff.day
     ORDER BY ta.workspace_id, diff.day
    ON CONFLICT (workspace_id, day) DO UPDATE SET
      snapshots = w.snapshots + EXCLUDED.snapshots, followers = w.followers + EXCLUDED.followers,
      views = w.views + EXCLUDED.views, videos = w.videos + EXCLUDED.videos
    RETURNING w.workspace_id, w.day, w.snapshots
  )
  SELECT array_agg(ws.workspace_id), array_agg(ws.day) INTO v_ws, v_days FROM ws WHERE ws.snapshots = 0\073
  IF v_ws IS NOT NULL THEN
    DELETE FROM workspace_growth_deltas w USING unnest(v_ws, v_days) AS z(workspace_id, day)
     WHERE w.workspace_id = z.workspace_id AND w.day = z.day AND w.snapshots = 0\073
  END IF\073
END';

-- Adds (p_sign = 1) or subtracts (-1) the stored deltas of p_accounts[i] to/from p_workspaces[i].
CREATE FUNCTION "growth_apply_tracking"(p_workspaces uuid[], p_accounts uuid[], p_sign int) RETURNS void LANGUAGE plpgsql AS E'
DECLARE
  v_ws uuid[]\073
  v_days date[]\073
BEGIN
  PERFORM 1 FROM accounts WHERE id = ANY (p_accounts) ORDER BY id FOR NO KEY UPDATE\073
  WITH ws AS (
    INSERT INTO workspace_growth_deltas AS w (workspace_id, day, snapshots, followers, views, videos)
    SELECT t.workspace_id, g.day, p_sign * count(*)::int, p_sign * sum(g.followers), p_sign * sum(g.views), p_sign * sum(g.videos)
      FROM unnest(p_workspaces, p_accounts) AS t(workspace_id, account_id)
      JOIN account_growth_deltas g ON g.account_id = t.account_id
     GROUP BY t.workspace_id, g.day
     ORDER BY t.workspace_id, g.day
    ON CONFLICT (workspace_id, day) DO UPDATE SET
      snapshots = w.snapshots + EXCLUDED.snapshots, followers = w.followers + EXCLUDED.followers,
      views = w.views + EXCLUDED.views, videos = w.videos + EXCLUDED.videos
    RETURNING w.workspace_id, w.day, w.snapshots
  )
  SELECT array_agg(ws.workspace_id), array_agg(ws.day) INTO v_ws, v_days FROM ws WHERE ws.snapshots = 0\073
  IF v_ws IS NOT NULL THEN
    DELETE FROM workspace_growth_deltas w USING unnest(v_ws, v_days) AS z(workspace_id, day)
     WHERE w.workspace_id = z.workspace_id AND w.day = z.day AND w.snapshots = 0\073
  END IF\073
END';

-- Trigger functions: each only reads its transition table(s) and calls one of the two above.
CREATE FUNCTION "account_snapshots_growth_inserted"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  PERFORM growth_reconcile_accounts(array_agg(account_id), array_agg(day)) FROM new_rows HAVING count(*) > 0\073
  RETURN NULL\073
END';

CREATE FUNCTION "account_snapshots_growth_updated"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  PERFORM growth_reconcile_accounts(array_agg(account_id), array_agg(day))
     FROM (SELECT account_id, day FROM old_rows UNION ALL SELECT account_id, day FROM new_rows) x HAVING count(*) > 0\073
  RETURN NULL\073
END';

CREATE FUNCTION "account_snapshots_growth_deleted"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  PERFORM growth_reconcile_accounts(array_agg(account_id), array_agg(day)) FROM old_rows HAVING count(*) > 0\073
  RETURN NULL\073
END';

CREATE FUNCTION "tracked_accounts_growth_inserted"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  PERFORM growth_apply_tracking(array_agg(workspace_id), array_agg(account_id), 1) FROM new_rows HAVING count(*) > 0\073
  RETURN NULL\073
END';

CREATE FUNCTION "tracked_accounts_growth_updated"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  -- Only a change of the (workspace, account) pair matters (video_limit updates change nothing).
  PERFORM growth_apply_tracking(array_agg(o.workspace_id), array_agg(o.account_id), -1)
     FROM old_rows o JOIN new_rows n ON n.id = o.id
    WHERE (o.workspace_id, o.account_id) IS DISTINCT FROM (n.workspace_id, n.account_id) HAVING count(*) > 0\073
  PERFORM growth_apply_tracking(array_agg(n.workspace_id), array_agg(n.account_id), 1)
     FROM old_rows o JOIN new_rows n ON n.id = o.id
    WHERE (o.workspace_id, o.account_id) IS DISTINCT FROM (n.workspace_id, n.account_id) HAVING count(*) > 0\073
  RETURN NULL\073
END';

CREATE FUNCTION "tracked_accounts_growth_deleted"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  PERFORM growth_apply_tracking(array_agg(workspace_id), array_agg(account_id), -1) FROM old_rows HAVING count(*) > 0\073
  RETURN NULL\073
END';

CREATE TRIGGER "account_snapshots_growth_inserted" AFTER INSERT ON "account_snapshots"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "account_snapshots_growth_inserted"();

CREATE TRIGGER "account_snapshots_growth_updated" AFTER UPDATE ON "account_snapshots"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "account_snapshots_growth_updated"();

CREATE TRIGGER "account_snapshots_growth_deleted" AFTER DELETE ON "account_snapshots"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "account_snapshots_growth_deleted"();

CREATE TRIGGER "tracked_accounts_growth_inserted" AFTER INSERT ON "tracked_accounts"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "tracked_accounts_growth_inserted"();

CREATE TRIGGER "tracked_accounts_growth_updated" AFTER UPDATE ON "tracked_accounts"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "tracked_accounts_growth_updated"();

CREATE TRIGGER "tracked_accounts_growth_deleted" AFTER DELETE ON "tracked_accounts"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "tracked_accounts_growth_deleted"();
