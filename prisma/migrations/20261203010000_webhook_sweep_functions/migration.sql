-- Issue 33: the webhook sweep's two hot statements as functions whose plans do not depend on the
-- table's statistics. Inline, the planner judged them by statistics that lag a burst: with
-- "WebhookDelivery" never analyzed (or analyzed when little was pending) it estimated a handful of
-- due rows, so the claim read and sorted EVERY pending delivery to take 50 (a bitmap heap scan and
-- a sort: 9-17 ms a claim with 10 000 pending, growing with the backlog), and the outcome write
-- joined its rows to the table by two sequential scans of the whole table (5-14 ms a write,
-- growing with the table). Measured with auto_explain during `npm run bench -- webhooks`.

-- Claims up to p_limit due deliveries, oldest due first, skipping rows other workers hold
-- (FOR UPDATE SKIP LOCKED) or lease; returns each with its endpoint. Sorting and bitmap scans are
-- off inside it, so the claim walks ("status", "nextAttemptAt") in order and stops at p_limit:
-- its cost is the claimed rows plus the leased ones it steps over, whatever the backlog.
CREATE FUNCTION "webhook_claim_due"(p_now timestamp, p_lease_until timestamp, p_limit integer, p_updated_at timestamp)
RETURNS TABLE (id text, body text, attempts integer, "isTest" boolean, "endpointId" text, url text, "secretEnc" text, active boolean)
LANGUAGE plpgsql
SET enable_sort = off
SET enable_bitmapscan = off
AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
  WITH claimed AS (
    UPDATE "WebhookDelivery" SET "leaseUntil" = p_lease_until, "updatedAt" = p_updated_at
    WHERE "WebhookDelivery".id IN (
      SELECT d.id FROM "WebhookDelivery" d
      WHERE d.status = 'pending' AND d."nextAttemptAt" <= p_now AND (d."leaseUntil" IS NULL OR d."leaseUntil" < p_now)
      ORDER BY d."nextAttemptAt" LIMIT p_limit FOR UPDATE SKIP LOCKED)
    RETURNING "WebhookDelivery".id, "WebhookDelivery".body, "WebhookDelivery".attempts, "WebhookDelivery"."isTest", "WebhookDelivery"."endpointId")
  SELECT c.id, c.body, c.attempts, c."isTest", c."endpointId", e.url, e."secretEnc", e.active
  FROM claimed c JOIN "WebhookEndpoint" e ON e.id = c."endpointId";
END
$$;

-- Records the outcomes of a group of attempts (a JSON array, one object per attempt) and returns
-- how many deliveries changed state. For each: the attempt row is inserted (when the delivery
-- still exists: an attempt whose lease was taken over did happen, so it is logged too), and the
-- delivery's new state is written only while this worker's lease holds (the lease value and the
-- attempt count it claimed). One statement from the caller, so all of a group commits or none;
-- every row is found by its primary key, whatever the table's size or statistics.
CREATE FUNCTION "webhook_record_outcomes"(p_rows json, p_updated_at timestamp)
RETURNS integer
LANGUAGE plpgsql
AS $$
DECLARE
  r record;
  changed integer := 0;
  n integer;
BEGIN
  FOR r IN
    SELECT * FROM json_to_recordset(p_rows) AS x(id text, attempt_id text, prev int, lease_until timestamp, status text,
      next_at timestamp, started_at timestamp, latency int, code int, error text, req_headers jsonb, res_body text, res_truncated boolean)
  LOOP
    INSERT INTO "WebhookAttempt" (id, "deliveryId", attempt, "startedAt", "latencyMs", "statusCode", error,
      "requestHeaders", "responseBody", "responseTruncated")
    SELECT r.attempt_id, d.id, r.prev + 1, r.started_at, r.latency, r.code, r.error, r.req_headers, r.res_body, r.res_truncated
    FROM "WebhookDelivery" d WHERE d.id = r.id;
    UPDATE "WebhookDelivery" d
    SET status = r.status::"DeliveryStatus", attempts = r.prev + 1, "nextAttemptAt" = r.next_at, "leaseUntil" = NULL,
        "lastStatus" = r.code, "lastError" = r.error, "updatedAt" = p_updated_at
    WHERE d.id = r.id AND d."leaseUntil" = r.lease_until AND d.attempts = r.prev;
    GET DIAGNOSTICS n = ROW_COUNT;
    changed := changed + n;
  END LOOP;
  RETURN changed;
END
$$;

-- Room on each page for the claim's new row version: the claim changes no indexed column, so with
-- space on the page its update is a HOT update (no new index entries, and no entry for the claim's
-- scan to step over). Half of each page free holds one new version of every row on it, which is what a
-- claim needs. Measured with `npm run bench -- webhooks` (12 000 deliveries, 24 000 updates): at the
-- default (100) 969 updates were HOT and Postgres spent 215 µs of CPU per delivery; at 70, 5 831 and
-- 195 µs; at 50, 12 000 (every claim) and 167 µs. The cost: new pages of the table are written half
-- full. Applies to pages written from now on.
ALTER TABLE "WebhookDelivery" SET (fillfactor = 50);
