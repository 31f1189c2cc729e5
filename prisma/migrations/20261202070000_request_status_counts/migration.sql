-- The dashboard overview's request counts per kind and status without counting the account's requests
-- (issue 33: at 10^6 requests the overview read 1 030 980 rows). Postgres keeps the counts itself, so no
-- code path that writes PaymentRequest (Prisma, raw SQL, bulk seeding, an account's deletion) can miss one.
--
-- Writers only ever append to RequestStatusDelta (+1 / -1 rows): no counter row is shared between
-- concurrent transactions, so creating or paying one account's requests in parallel never waits on (or
-- deadlocks over) a counter. lib/requests/status-counts.ts folds the appended rows into
-- RequestStatusCount (the worker's `status-counts` job) and reads the folded counts plus the rows not yet
-- folded in one statement, so a read is exact at its snapshot whether the fold has run or not.

-- CreateTable
CREATE TABLE "RequestStatusCount" (
    "accountId" TEXT NOT NULL,
    "kind" "RequestKind" NOT NULL,
    "status" "RequestStatus" NOT NULL,
    "count" BIGINT NOT NULL,

    CONSTRAINT "RequestStatusCount_pkey" PRIMARY KEY ("accountId","kind","status")
);

-- CreateTable
CREATE TABLE "RequestStatusDelta" (
    "id" BIGSERIAL NOT NULL,
    "accountId" TEXT NOT NULL,
    "kind" "RequestKind" NOT NULL,
    "status" "RequestStatus" NOT NULL,
    "delta" INTEGER NOT NULL,

    CONSTRAINT "RequestStatusDelta_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "RequestStatusDelta_accountId_idx" ON "RequestStatusDelta"("accountId");

-- AddForeignKey
ALTER TABLE "RequestStatusCount" ADD CONSTRAINT "RequestStatusCount_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Inserts and deletes: once per statement, one row per (account, kind, status) the statement touched,
-- so a batch of 1 000 payouts appends one row, not 1 000.
CREATE FUNCTION "request_status_delta_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "RequestStatusDelta" ("accountId", "kind", "status", "delta")
  SELECT "accountId", "kind", "status", count(*) FROM new_rows GROUP BY 1, 2, 3;
  RETURN NULL;
END $$;

CREATE FUNCTION "request_status_delta_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "RequestStatusDelta" ("accountId", "kind", "status", "delta")
  SELECT "accountId", "kind", "status", -count(*) FROM old_rows GROUP BY 1, 2, 3;
  RETURN NULL;
END $$;

-- Updates: per row, and only when an UPDATE sets one of the three columns (most updates of a request
-- touch neither); a row whose values did not change appends nothing.
CREATE FUNCTION "request_status_delta_updated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (OLD."accountId", OLD."kind", OLD."status") IS DISTINCT FROM (NEW."accountId", NEW."kind", NEW."status") THEN
    INSERT INTO "RequestStatusDelta" ("accountId", "kind", "status", "delta")
    VALUES (OLD."accountId", OLD."kind", OLD."status", -1), (NEW."accountId", NEW."kind", NEW."status", 1);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "PaymentRequest_status_count_insert" AFTER INSERT ON "PaymentRequest"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "request_status_delta_inserted"();
CREATE TRIGGER "PaymentRequest_status_count_delete" AFTER DELETE ON "PaymentRequest"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "request_status_delta_deleted"();
CREATE TRIGGER "PaymentRequest_status_count_update" AFTER UPDATE OF "accountId", "kind", "status" ON "PaymentRequest"
  FOR EACH ROW EXECUTE FUNCTION "request_status_delta_updated"();

-- The requests that exist already, counted once.
INSERT INTO "RequestStatusCount" ("accountId", "kind", "status", "count")
SELECT "accountId", "kind", "status", count(*) FROM "PaymentRequest" GROUP BY 1, 2, 3;
