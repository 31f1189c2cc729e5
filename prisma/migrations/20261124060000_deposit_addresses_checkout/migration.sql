-- Deposit addresses (lib/deposits), the hosted page's description and line items, an account's logo (issue 13).
-- AlterTable
ALTER TABLE "Account" ADD COLUMN     "logoUrl" TEXT;

-- AlterTable
ALTER TABLE "SecurePayment" ADD COLUMN     "description" TEXT,
ADD COLUMN     "lineItems" JSONB;

-- CreateTable
CREATE TABLE "DepositAddress" (
    "requestId" TEXT NOT NULL,
    "network" TEXT NOT NULL,
    "tokenAddress" TEXT NOT NULL,
    "feeAmount" DECIMAL(78,0) NOT NULL DEFAULT 0,
    "factoryAddress" TEXT NOT NULL,
    "address" TEXT,
    "deployTxHash" TEXT,
    "deployBlock" BIGINT,
    "leaseUntil" TIMESTAMP(3),
    "depositors" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "lastForwardTxHash" TEXT,
    "lastForwardedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "DepositAddress_pkey" PRIMARY KEY ("requestId")
);

-- CreateIndex
CREATE INDEX "DepositAddress_network_lastForwardedAt_idx" ON "DepositAddress"("network", "lastForwardedAt");

-- CreateIndex
CREATE UNIQUE INDEX "DepositAddress_network_address_key" ON "DepositAddress"("network", "address");

-- AddForeignKey
ALTER TABLE "DepositAddress" ADD CONSTRAINT "DepositAddress_requestId_fkey" FOREIGN KEY ("requestId") REFERENCES "PaymentRequest"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- A NetworkId (NETWORK_IDS in lib/chain/networks.ts), like every network column.
ALTER TABLE "DepositAddress" ADD CONSTRAINT "DepositAddress_network_check"
  CHECK ("network" IN ('mainnet', 'arbitrum-one', 'optimism', 'base', 'matic', 'bsc', 'tron', 'sepolia'));
