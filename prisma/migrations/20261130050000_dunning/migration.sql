-- AlterTable
ALTER TABLE "RecurringSchedule" ADD COLUMN     "dunningPolicy" JSONB,
ADD COLUMN     "lookaheadDue" TIMESTAMP(3),
ADD COLUMN     "lookaheadNextAt" TIMESTAMP(3),
ADD COLUMN     "pastDueIndex" INTEGER,
ADD COLUMN     "pastDueSince" TIMESTAMP(3),
ADD COLUMN     "payerToken" TEXT;

-- CreateTable
CREATE TABLE "DunningSettings" (
    "accountId" TEXT NOT NULL,
    "retryIntervals" INTEGER[],
    "graceSeconds" INTEGER NOT NULL,
    "reminderLeadTimes" INTEGER[],
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "DunningSettings_pkey" PRIMARY KEY ("accountId")
);

-- CreateTable
CREATE TABLE "RecurringAttempt" (
    "id" TEXT NOT NULL,
    "scheduleId" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "attempt" INTEGER NOT NULL,
    "at" TIMESTAMP(3) NOT NULL,
    "reason" TEXT NOT NULL,
    "missing" DECIMAL(78,0),
    "nextRetryAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RecurringAttempt_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RecurringReminder" (
    "id" TEXT NOT NULL,
    "scheduleId" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "leadSeconds" INTEGER NOT NULL,
    "reason" TEXT NOT NULL,
    "missing" DECIMAL(78,0) NOT NULL,
    "dueAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RecurringReminder_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "RecurringAttempt_scheduleId_index_attempt_key" ON "RecurringAttempt"("scheduleId", "index", "attempt");

-- CreateIndex
CREATE UNIQUE INDEX "RecurringReminder_scheduleId_index_leadSeconds_reason_key" ON "RecurringReminder"("scheduleId", "index", "leadSeconds", "reason");

-- CreateIndex
CREATE UNIQUE INDEX "RecurringSchedule_payerToken_key" ON "RecurringSchedule"("payerToken");


