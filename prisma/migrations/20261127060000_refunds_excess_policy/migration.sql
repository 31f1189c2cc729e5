-- Issue 28: refunds (prepared by Duebill, sent by the payee's wallet or the deposit relayer, recorded by detection
-- under the request's refund reference) and the wrong-amount policy of an account and of a link.
-- CreateEnum
CREATE TYPE "RefundStatus" AS ENUM ('prepared', 'sent', 'confirmed', 'cancelled');

-- CreateEnum
CREATE TYPE "RefundReason" AS ENUM ('requested', 'excess', 'underpaid', 'late');

-- CreateEnum
CREATE TYPE "RefundSender" AS ENUM ('payee', 'relayer');

-- CreateEnum
CREATE TYPE "ExcessPolicy" AS ENUM ('return', 'offer', 'keep');

-- AlterTable
ALTER TABLE "Account" ADD COLUMN     "excessPolicy" "ExcessPolicy" NOT NULL DEFAULT 'offer';

-- AlterTable
ALTER TABLE "PaymentRequest" ADD COLUMN     "amountRefunded" DECIMAL(78,0) NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "SecurePayment" ADD COLUMN     "excessPolicy" "ExcessPolicy";

-- CreateTable
CREATE TABLE "Refund" (
    "id" TEXT NOT NULL,
    "requestId" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "network" TEXT NOT NULL,
    "tokenAddress" TEXT NOT NULL,
    "toAddress" TEXT NOT NULL,
    "amount" DECIMAL(78,0) NOT NULL,
    "refundReference" TEXT NOT NULL,
    "referenceHash" TEXT NOT NULL,
    "reason" "RefundReason" NOT NULL DEFAULT 'requested',
    "sender" "RefundSender" NOT NULL DEFAULT 'payee',
    "status" "RefundStatus" NOT NULL DEFAULT 'prepared',
    "warning" TEXT,
    "txHash" TEXT,
    "logIndex" INTEGER,
    "blockNumber" BIGINT,
    "blockHash" TEXT,
    "blockTime" TIMESTAMP(3),
    "sentAt" TIMESTAMP(3),
    "confirmedAt" TIMESTAMP(3),
    "cancelledAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Refund_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Refund_requestId_idx" ON "Refund"("requestId");

-- CreateIndex
CREATE INDEX "Refund_network_referenceHash_idx" ON "Refund"("network", "referenceHash");

-- CreateIndex
CREATE INDEX "Refund_accountId_createdAt_idx" ON "Refund"("accountId", "createdAt" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "Refund_network_txHash_logIndex_key" ON "Refund"("network", "txHash", "logIndex");

-- AddForeignKey
ALTER TABLE "Refund" ADD CONSTRAINT "Refund_requestId_fkey" FOREIGN KEY ("requestId") REFERENCES "PaymentRequest"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Refund" ADD CONSTRAINT "Refund_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;



-- Network IDs (NETWORK_IDS in lib/chain/networks.ts), as on every network column.
ALTER TABLE "Refund" ADD CONSTRAINT "Refund_network_check"
  CHECK ("network" IN ('mainnet', 'arbitrum-one', 'optimism', 'base', 'matic', 'bsc', 'tron', 'sepolia'));
