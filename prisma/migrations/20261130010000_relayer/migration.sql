-- #31 signature payments: the transactions the signature relayer submits (lib/relayer).
-- CreateEnum
CREATE TYPE "RelayedStatus" AS ENUM ('pending', 'signed', 'submitted', 'confirmed', 'reverted', 'failed');

-- CreateTable
CREATE TABLE "RelayedTransaction" (
    "id" TEXT NOT NULL,
    "idempotencyKey" TEXT NOT NULL,
    "network" TEXT NOT NULL,
    "relayer" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "accountId" TEXT,
    "subjectId" TEXT,
    "to" TEXT NOT NULL,
    "data" TEXT NOT NULL,
    "status" "RelayedStatus" NOT NULL DEFAULT 'pending',
    "txHash" TEXT,
    "rawTx" TEXT,
    "blockNumber" BIGINT,
    "gasUsed" BIGINT,
    "effectiveGasPrice" DECIMAL(78,0),
    "costWei" DECIMAL(78,0),
    "error" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "RelayedTransaction_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "RelayedTransaction_idempotencyKey_key" ON "RelayedTransaction"("idempotencyKey");

-- CreateIndex
CREATE INDEX "RelayedTransaction_status_updatedAt_idx" ON "RelayedTransaction"("status", "updatedAt");

-- CreateIndex
CREATE INDEX "RelayedTransaction_subjectId_idx" ON "RelayedTransaction"("subjectId");


