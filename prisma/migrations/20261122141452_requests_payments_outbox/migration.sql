-- CreateEnum
CREATE TYPE "RequestKind" AS ENUM ('request', 'payout');

-- CreateEnum
CREATE TYPE "RequestStatus" AS ENUM ('pending', 'partially_paid', 'paid');

-- CreateTable
CREATE TABLE "PaymentRequest" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "clientId" TEXT,
    "kind" "RequestKind" NOT NULL,
    "network" TEXT NOT NULL,
    "invoiceCurrency" TEXT NOT NULL,
    "paymentCurrency" TEXT NOT NULL,
    "tokenAddress" TEXT NOT NULL,
    "amount" TEXT NOT NULL,
    "expectedAmount" DECIMAL(78,0) NOT NULL,
    "payee" TEXT NOT NULL,
    "payer" TEXT,
    "salt" TEXT NOT NULL,
    "paymentReference" TEXT NOT NULL,
    "referenceHash" TEXT NOT NULL,
    "feePercentage" TEXT,
    "feeAddress" TEXT,
    "feeAmount" DECIMAL(78,0) NOT NULL DEFAULT 0,
    "reference" TEXT,
    "customerInfo" JSONB,
    "batchId" TEXT,
    "status" "RequestStatus" NOT NULL DEFAULT 'pending',
    "amountPaid" DECIMAL(78,0) NOT NULL DEFAULT 0,
    "paidAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PaymentRequest_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Payment" (
    "id" TEXT NOT NULL,
    "requestId" TEXT NOT NULL,
    "network" TEXT NOT NULL,
    "txHash" TEXT NOT NULL,
    "logIndex" INTEGER NOT NULL,
    "blockNumber" BIGINT NOT NULL,
    "blockHash" TEXT NOT NULL,
    "payer" TEXT,
    "payee" TEXT NOT NULL,
    "tokenAddress" TEXT NOT NULL,
    "amount" DECIMAL(78,0) NOT NULL,
    "feeAmount" DECIMAL(78,0) NOT NULL,
    "feeAddress" TEXT,
    "proxyAddress" TEXT NOT NULL,
    "blockTime" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Payment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ChainCursor" (
    "network" TEXT NOT NULL,
    "lastBlock" BIGINT NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ChainCursor_pkey" PRIMARY KEY ("network")
);

-- CreateTable
CREATE TABLE "OutboxEvent" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "clientId" TEXT,
    "type" TEXT NOT NULL,
    "dedupeKey" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "requestId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OutboxEvent_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "PaymentRequest_accountId_createdAt_idx" ON "PaymentRequest"("accountId", "createdAt");

-- CreateIndex
CREATE INDEX "PaymentRequest_batchId_idx" ON "PaymentRequest"("batchId");

-- CreateIndex
CREATE UNIQUE INDEX "PaymentRequest_network_referenceHash_key" ON "PaymentRequest"("network", "referenceHash");

-- CreateIndex
CREATE INDEX "Payment_requestId_idx" ON "Payment"("requestId");

-- CreateIndex
CREATE UNIQUE INDEX "Payment_network_txHash_logIndex_key" ON "Payment"("network", "txHash", "logIndex");

-- CreateIndex
CREATE UNIQUE INDEX "OutboxEvent_dedupeKey_key" ON "OutboxEvent"("dedupeKey");

-- CreateIndex
CREATE INDEX "OutboxEvent_accountId_createdAt_idx" ON "OutboxEvent"("accountId", "createdAt");

-- AddForeignKey
ALTER TABLE "PaymentRequest" ADD CONSTRAINT "PaymentRequest_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Payment" ADD CONSTRAINT "Payment_requestId_fkey" FOREIGN KEY ("requestId") REFERENCES "PaymentRequest"("id") ON DELETE CASCADE ON UPDATE CASCADE;
