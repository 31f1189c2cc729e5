-- CreateTable
CREATE TABLE "CommercePayment" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "requestId" TEXT NOT NULL,
    "clientId" TEXT,
    "network" TEXT NOT NULL,
    "escrowAddress" TEXT NOT NULL,
    "paymentId" TEXT NOT NULL,
    "info" JSONB NOT NULL,
    "method" TEXT NOT NULL,
    "operator" TEXT NOT NULL,
    "payer" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'created',
    "authorizedAmount" DECIMAL(78,0) NOT NULL DEFAULT 0,
    "capturedAmount" DECIMAL(78,0) NOT NULL DEFAULT 0,
    "capturedFee" DECIMAL(78,0) NOT NULL DEFAULT 0,
    "voidedAmount" DECIMAL(78,0) NOT NULL DEFAULT 0,
    "reclaimedAmount" DECIMAL(78,0) NOT NULL DEFAULT 0,
    "refundedAmount" DECIMAL(78,0) NOT NULL DEFAULT 0,
    "preApprovalExpiry" TIMESTAMP(3) NOT NULL,
    "authorizationExpiry" TIMESTAMP(3) NOT NULL,
    "fromBlock" BIGINT NOT NULL,
    "authorizedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CommercePayment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CommerceEscrowEvent" (
    "id" TEXT NOT NULL,
    "commercePaymentId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "amount" DECIMAL(78,0) NOT NULL,
    "feeAmount" DECIMAL(78,0) NOT NULL DEFAULT 0,
    "txHash" TEXT NOT NULL,
    "logIndex" INTEGER NOT NULL,
    "blockNumber" BIGINT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CommerceEscrowEvent_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "CommercePayment_requestId_key" ON "CommercePayment"("requestId");

-- CreateIndex
CREATE UNIQUE INDEX "CommercePayment_paymentId_key" ON "CommercePayment"("paymentId");

-- CreateIndex
CREATE INDEX "CommercePayment_accountId_createdAt_idx" ON "CommercePayment"("accountId", "createdAt");

-- CreateIndex
CREATE INDEX "CommercePayment_status_idx" ON "CommercePayment"("status");

-- CreateIndex
CREATE INDEX "CommerceEscrowEvent_commercePaymentId_blockNumber_idx" ON "CommerceEscrowEvent"("commercePaymentId", "blockNumber");

-- CreateIndex
CREATE UNIQUE INDEX "CommerceEscrowEvent_txHash_logIndex_key" ON "CommerceEscrowEvent"("txHash", "logIndex");



-- network: a NetworkId (see base.prisma), the same set as every network column (lib/commerce refuses Tron).
ALTER TABLE "CommercePayment" ADD CONSTRAINT "CommercePayment_network_check"
  CHECK ("network" IN ('mainnet', 'arbitrum-one', 'optimism', 'base', 'matic', 'bsc', 'tron', 'sepolia'));
