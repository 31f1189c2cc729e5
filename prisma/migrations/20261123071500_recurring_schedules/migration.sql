-- Recurring payouts (issue 11): signed schedules and their per-index payments (lib/recurring/executor.ts).
-- CreateEnum
CREATE TYPE "RecurringScheduleStatus" AS ENUM ('pending', 'active', 'paused', 'completed', 'cancelled');

-- CreateEnum
CREATE TYPE "RecurringPaymentStatus" AS ENUM ('intent', 'sent', 'confirmed', 'failed');

-- CreateTable
CREATE TABLE "RecurringSchedule" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "network" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "payer" TEXT NOT NULL,
    "payee" TEXT NOT NULL,
    "amount" DECIMAL(78,0) NOT NULL,
    "feeAmount" DECIMAL(78,0) NOT NULL DEFAULT 0,
    "feeAddress" TEXT,
    "totalPayments" INTEGER NOT NULL,
    "dueTimes" INTEGER[],
    "deadline" INTEGER NOT NULL,
    "nonce" TEXT NOT NULL,
    "scheduleId" TEXT NOT NULL,
    "permitSignature" TEXT,
    "status" "RecurringScheduleStatus" NOT NULL DEFAULT 'pending',
    "processedPayments" INTEGER NOT NULL DEFAULT 0,
    "failureCode" TEXT,
    "failureReason" TEXT,
    "leaseUntil" TIMESTAMP(3),
    "nextDueAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "RecurringSchedule_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RecurringPayment" (
    "id" TEXT NOT NULL,
    "scheduleId" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "status" "RecurringPaymentStatus" NOT NULL DEFAULT 'intent',
    "txHash" TEXT,
    "txNonce" INTEGER,
    "sentAt" TIMESTAMP(3),
    "confirmedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RecurringPayment_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "RecurringSchedule_status_nextDueAt_idx" ON "RecurringSchedule"("status", "nextDueAt");

-- CreateIndex
CREATE INDEX "RecurringSchedule_accountId_idx" ON "RecurringSchedule"("accountId");

-- CreateIndex
CREATE UNIQUE INDEX "RecurringPayment_scheduleId_index_key" ON "RecurringPayment"("scheduleId", "index");

-- AddForeignKey
ALTER TABLE "RecurringSchedule" ADD CONSTRAINT "RecurringSchedule_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RecurringPayment" ADD CONSTRAINT "RecurringPayment_scheduleId_fkey" FOREIGN KEY ("scheduleId") REFERENCES "RecurringSchedule"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Network IDs (NETWORK_IDS in lib/chain/networks.ts). Not a Prisma enum: see prisma/schema/base.prisma.
ALTER TABLE "RecurringSchedule" ADD CONSTRAINT "RecurringSchedule_network_check"
  CHECK ("network" IN ('mainnet', 'arbitrum-one', 'optimism', 'base', 'matic', 'bsc', 'tron', 'sepolia'));
