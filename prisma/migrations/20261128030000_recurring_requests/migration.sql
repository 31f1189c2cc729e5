-- Issue 29: recurring requests. POST /v2/request with `recurrence` makes the request period 1 of a series;
-- the sweep creates period n on the recurring calendar, once: (recurrenceId, recurrenceIndex) is unique.
-- AlterTable
ALTER TABLE "PaymentRequest" ADD COLUMN     "recurrenceId" TEXT,
ADD COLUMN     "recurrenceIndex" INTEGER;

-- CreateTable
CREATE TABLE "RequestRecurrence" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "clientId" TEXT,
    "originalRequestId" TEXT NOT NULL,
    "frequency" TEXT NOT NULL,
    "startDate" TIMESTAMP(3) NOT NULL,
    "nextIndex" INTEGER NOT NULL DEFAULT 2,
    "nextDueAt" TIMESTAMP(3),
    "stoppedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "RequestRecurrence_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "RequestRecurrence_originalRequestId_key" ON "RequestRecurrence"("originalRequestId");

-- CreateIndex
CREATE INDEX "RequestRecurrence_nextDueAt_idx" ON "RequestRecurrence"("nextDueAt");

-- CreateIndex
CREATE INDEX "RequestRecurrence_accountId_idx" ON "RequestRecurrence"("accountId");

-- CreateIndex
CREATE UNIQUE INDEX "PaymentRequest_recurrenceId_recurrenceIndex_key" ON "PaymentRequest"("recurrenceId", "recurrenceIndex");

-- AddForeignKey
ALTER TABLE "PaymentRequest" ADD CONSTRAINT "PaymentRequest_recurrenceId_fkey" FOREIGN KEY ("recurrenceId") REFERENCES "RequestRecurrence"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RequestRecurrence" ADD CONSTRAINT "RequestRecurrence_originalRequestId_fkey" FOREIGN KEY ("originalRequestId") REFERENCES "PaymentRequest"("id") ON DELETE CASCADE ON UPDATE CASCADE;



-- Not tracked by Prisma: a series' frequency is one of the calendar's, and a request is in a series
-- with its period (1-based) or in none.
ALTER TABLE "RequestRecurrence" ADD CONSTRAINT "RequestRecurrence_frequency_check"
  CHECK ("frequency" IN ('DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'));
ALTER TABLE "RequestRecurrence" ADD CONSTRAINT "RequestRecurrence_nextIndex_check" CHECK ("nextIndex" >= 2);
ALTER TABLE "PaymentRequest" ADD CONSTRAINT "PaymentRequest_recurrence_check"
  CHECK (("recurrenceId" IS NULL) = ("recurrenceIndex" IS NULL) AND ("recurrenceIndex" IS NULL OR "recurrenceIndex" >= 1));
