-- Dashboard and GET /v2/payments at scale (issue 14): each payment carries its request's account
-- (filled here for existing rows, then by lib/detection/record-payment.ts insertPayment), and a
-- per-day rollup of what each account received feeds the overview and the unfiltered count.

-- AlterTable: nullable first, backfilled from the request, then required.
ALTER TABLE "Payment" ADD COLUMN     "accountId" TEXT;
UPDATE "Payment" p SET "accountId" = pr."accountId" FROM "PaymentRequest" pr WHERE pr."id" = p."requestId";
ALTER TABLE "Payment" ALTER COLUMN "accountId" SET NOT NULL;

-- CreateTable
CREATE TABLE "PaymentDaily" (
    "accountId" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "network" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "count" INTEGER NOT NULL,
    "amount" DECIMAL(78,0) NOT NULL,

    CONSTRAINT "PaymentDaily_pkey" PRIMARY KEY ("accountId","day","network","currency")
);

-- Network IDs (NETWORK_IDS in lib/chain/networks.ts), as on every network column.
ALTER TABLE "PaymentDaily" ADD CONSTRAINT "PaymentDaily_network_check"
  CHECK ("network" IN ('mainnet', 'arbitrum-one', 'optimism', 'base', 'matic', 'bsc', 'tron', 'sepolia'));

-- The rollup of the payments recorded so far (UTC days: blockTime is a UTC timestamp without zone).
INSERT INTO "PaymentDaily" ("accountId", "day", "network", "currency", "count", "amount")
SELECT p."accountId", p."blockTime"::date, pr."network", pr."paymentCurrency", count(*), sum(p."amount")
FROM "Payment" p JOIN "PaymentRequest" pr ON pr."id" = p."requestId"
GROUP BY 1, 2, 3, 4;

-- CreateIndex
CREATE INDEX "Payment_accountId_blockTime_id_idx" ON "Payment"("accountId", "blockTime" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "PaymentRequest_accountId_status_idx" ON "PaymentRequest"("accountId", "status");

-- AddForeignKey
ALTER TABLE "Payment" ADD CONSTRAINT "Payment_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PaymentDaily" ADD CONSTRAINT "PaymentDaily_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;
