-- Money in and money out, apart (issue 27): the per-day rollup is kept per request kind, so the
-- overview's totals and chart show what the account received (kind `request`: it is the payee)
-- apart from what it paid out (kind `payout`: payouts and recurring payouts to others).

-- AlterTable: existing rows are rebuilt below, so the default only serves the ALTER.
ALTER TABLE "PaymentDaily" ADD COLUMN "kind" "RequestKind" NOT NULL DEFAULT 'request';
ALTER TABLE "PaymentDaily" ALTER COLUMN "kind" DROP DEFAULT;
ALTER TABLE "PaymentDaily" DROP CONSTRAINT "PaymentDaily_pkey";
ALTER TABLE "PaymentDaily" ADD CONSTRAINT "PaymentDaily_pkey" PRIMARY KEY ("accountId", "day", "network", "currency", "kind");

-- The rollup of the payments recorded so far, now split by kind (UTC days, as the first rollup).
DELETE FROM "PaymentDaily";
INSERT INTO "PaymentDaily" ("accountId", "day", "network", "currency", "kind", "count", "amount")
SELECT p."accountId", p."blockTime"::date, pr."network", pr."paymentCurrency", pr."kind", count(*), sum(p."amount")
FROM "Payment" p JOIN "PaymentRequest" pr ON pr."id" = p."requestId"
GROUP BY 1, 2, 3, 4, 5;
