-- The dashboard overview's counts (requests and payouts per status, links per status) without counting
-- the account's rows (issue 33: at 10^6 requests the overview read 1 030 980 rows). Postgres keeps the
-- counts itself, so no code path that writes PaymentRequest or SecurePayment (Prisma, raw SQL, bulk
-- seeding, an account's deletion) can miss one.
--
-- Writers only ever append to StatusCountDelta (+1 / -1 rows): no counter row is shared between
-- concurrent transactions, so creating or paying one account's requests in parallel never waits on (or
-- deadlocks over) a counter. lib/requests/status-counts.ts folds the appended rows into StatusCount (the
-- worker's `status-counts` job) and reads the folded counts plus the rows not yet folded in one
-- statement, so a read is exact at its snapshot whether the fold has run or not.

-- CreateTable
CREATE TABLE "StatusCount" (
    "accountId" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "count" BIGINT NOT NULL,

    CONSTRAINT "StatusCount_pkey" PRIMARY KEY ("accountId","subject","status")
);

-- CreateTable
CREATE TABLE "StatusCountDelta" (
    "id" BIGSERIAL NOT NULL,
    "accountId" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "delta" INTEGER NOT NULL,

    CONSTRAINT "StatusCountDelta_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "StatusCountDelta_accountId_idx" ON "StatusCountDelta"("accountId");

-- A queue table: rows come and go every fold. Vacuum and analyze it after 1 000 changes rather than a
-- fraction of its size, so the dead rows of a large fold are gone (and the planner knows the table is
-- small again, reading the account's rows through the index) within autovacuum's next round.
ALTER TABLE "StatusCountDelta" SET (
  autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 1000,
  autovacuum_analyze_scale_factor = 0, autovacuum_analyze_threshold = 1000
);

-- CreateIndex
CREATE INDEX "SecurePayment_accountId_status_idx" ON "SecurePayment"("accountId", "status");

-- AddForeignKey
ALTER TABLE "StatusCount" ADD CONSTRAINT "StatusCount_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Inserts and deletes: once per statement, one row per (account, subject, status) the statement touched,
-- so a batch of 1 000 payouts appends one row, not 1 000. The subject is the request's kind, or `link`.
CREATE FUNCTION "status_count_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'PaymentRequest' THEN
    INSERT INTO "StatusCountDelta" ("accountId", "subject", "status", "delta")
    SELECT "accountId", "kind"::text, "status"::text, count(*) FROM new_rows GROUP BY 1, 2, 3;
  ELSE
    INSERT INTO "StatusCountDelta" ("accountId", "subject", "status", "delta")
    SELECT "accountId", 'link', "status"::text, count(*) FROM new_rows GROUP BY 1, 2, 3;
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION "status_count_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'PaymentRequest' THEN
    INSERT INTO "StatusCountDelta" ("accountId", "subject", "status", "delta")
    SELECT "accountId", "kind"::text, "status"::text, -count(*) FROM old_rows GROUP BY 1, 2, 3;
  ELSE
    INSERT INTO "StatusCountDelta" ("accountId", "subject", "status", "delta")
    SELECT "accountId", 'link', "status"::text, -count(*) FROM old_rows GROUP BY 1, 2, 3;
  END IF;
  RETURN NULL;
END $$;

-- Updates: per row, and only when an UPDATE sets one of the counted columns (most updates touch none);
-- a row whose values did not change appends nothing.
CREATE FUNCTION "request_status_count_updated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (OLD."accountId", OLD."kind", OLD."status") IS DISTINCT FROM (NEW."accountId", NEW."kind", NEW."status") THEN
    INSERT INTO "StatusCountDelta" ("accountId", "subject", "status", "delta")
    VALUES (OLD."accountId", OLD."kind"::text, OLD."status"::text, -1), (NEW."accountId", NEW."kind"::text, NEW."status"::text, 1);
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION "link_status_count_updated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (OLD."accountId", OLD."status") IS DISTINCT FROM (NEW."accountId", NEW."status") THEN
    INSERT INTO "StatusCountDelta" ("accountId", "subject", "status", "delta")
    VALUES (OLD."accountId", 'link', OLD."status"::text, -1), (NEW."accountId", 'link', NEW."status"::text, 1);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "PaymentRequest_status_count_insert" AFTER INSERT ON "PaymentRequest"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "status_count_inserted"();
CREATE TRIGGER "PaymentRequest_status_count_delete" AFTER DELETE ON "PaymentRequest"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "status_count_deleted"();
CREATE TRIGGER "PaymentRequest_status_count_update" AFTER UPDATE OF "accountId", "kind", "status" ON "PaymentRequest"
  FOR EACH ROW EXECUTE FUNCTION "request_status_count_updated"();

CREATE TRIGGER "SecurePayment_status_count_insert" AFTER INSERT ON "SecurePayment"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "status_count_inserted"();
CREATE TRIGGER "SecurePayment_status_count_delete" AFTER DELETE ON "SecurePayment"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "status_count_deleted"();
CREATE TRIGGER "SecurePayment_status_count_update" AFTER UPDATE OF "accountId", "status" ON "SecurePayment"
  FOR EACH ROW EXECUTE FUNCTION "link_status_count_updated"();

-- The rows that exist already, counted once.
INSERT INTO "StatusCount" ("accountId", "subject", "status", "count")
SELECT "accountId", "kind"::text, "status"::text, count(*) FROM "PaymentRequest" GROUP BY 1, 2, 3;
INSERT INTO "StatusCount" ("accountId", "subject", "status", "count")
SELECT "accountId", 'link', "status"::text, count(*) FROM "SecurePayment" GROUP BY 1, 2, 3;
