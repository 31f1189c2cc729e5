-- Recurring payouts exposed (issue 11): the schedule keeps what its permit is bound to (chain ID,
-- contract, currencies, calendar) and each payment index is its own payment request.
ALTER TABLE "RecurringSchedule" ADD COLUMN "clientId" TEXT,
ADD COLUMN "chainId" INTEGER NOT NULL,
ADD COLUMN "contract" TEXT NOT NULL,
ADD COLUMN "invoiceCurrency" TEXT NOT NULL,
ADD COLUMN "paymentCurrency" TEXT NOT NULL,
ADD COLUMN "frequency" TEXT NOT NULL,
ADD COLUMN "startDate" TIMESTAMP(3) NOT NULL,
ADD COLUMN "relayerFee" DECIMAL(78,0) NOT NULL DEFAULT 0,
ADD COLUMN "failureCount" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN "lastPaymentAt" TIMESTAMP(3);

ALTER TABLE "PaymentRequest" ADD COLUMN "recurringScheduleId" TEXT,
ADD COLUMN "recurringIndex" INTEGER;

-- CreateIndex
CREATE UNIQUE INDEX "PaymentRequest_recurringScheduleId_recurringIndex_key" ON "PaymentRequest"("recurringScheduleId", "recurringIndex");

-- AddForeignKey
ALTER TABLE "PaymentRequest" ADD CONSTRAINT "PaymentRequest_recurringScheduleId_fkey" FOREIGN KEY ("recurringScheduleId") REFERENCES "RecurringSchedule"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "RecurringSchedule" ADD CONSTRAINT "RecurringSchedule_frequency_check"
  CHECK ("frequency" IN ('DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'));

-- The sweep's claim filters by network too (lib/recurring/claim.ts).
DROP INDEX "RecurringSchedule_status_nextDueAt_idx";
CREATE INDEX "RecurringSchedule_status_network_nextDueAt_idx" ON "RecurringSchedule"("status", "network", "nextDueAt");
