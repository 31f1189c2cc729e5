-- CreateEnum
CREATE TYPE "FeeFlow" AS ENUM ('get_paid', 'pay');

-- CreateEnum
CREATE TYPE "FeeBearer" AS ENUM ('payer', 'payee');

-- CreateEnum
CREATE TYPE "SecurePaymentStatus" AS ENUM ('pending', 'completed', 'expired', 'invalidated', 'compliance_failed');

-- AlterTable
ALTER TABLE "ClientId" ADD COLUMN     "boundDestinationId" TEXT;

-- CreateTable
CREATE TABLE "PayeeDestination" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "walletAddress" TEXT NOT NULL,
    "network" TEXT NOT NULL,
    "chainId" INTEGER NOT NULL,
    "tokenAddress" TEXT NOT NULL,
    "tokenSymbol" TEXT NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deactivatedAt" TIMESTAMP(3),

    CONSTRAINT "PayeeDestination_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "FeeConfig" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "flow" "FeeFlow" NOT NULL,
    "label" TEXT NOT NULL DEFAULT 'Platform fee',
    "percentageBps" INTEGER NOT NULL,
    "capUsd" DECIMAL(20,2),
    "feeBearer" "FeeBearer" NOT NULL DEFAULT 'payer',
    "evmAddress" TEXT,
    "tronAddress" TEXT,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "FeeConfig_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SecurePayment" (
    "token" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "clientId" TEXT,
    "orchestratorId" TEXT,
    "direction" TEXT NOT NULL,
    "paymentType" TEXT NOT NULL,
    "status" "SecurePaymentStatus" NOT NULL DEFAULT 'pending',
    "network" TEXT NOT NULL,
    "currency" TEXT,
    "executionKind" TEXT,
    "identityMode" TEXT NOT NULL,
    "whitelabel" BOOLEAN NOT NULL DEFAULT false,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "completedAt" TIMESTAMP(3),
    "redirectUrl" TEXT,
    "redirectLabel" TEXT,
    "reference" TEXT,
    "payerIdentifier" TEXT,
    "accessPolicy" JSONB,
    "feePlan" JSONB,
    "destination" JSONB,
    "claimedDestination" JSONB,
    "payerAddress" TEXT,
    "payerKytResults" JSONB NOT NULL DEFAULT '[]',
    "payeeKytResults" JSONB NOT NULL DEFAULT '[]',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SecurePayment_pkey" PRIMARY KEY ("token")
);

-- CreateTable
CREATE TABLE "SecurePaymentRequest" (
    "securePaymentToken" TEXT NOT NULL,
    "requestId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,

    CONSTRAINT "SecurePaymentRequest_pkey" PRIMARY KEY ("securePaymentToken","requestId")
);

-- CreateIndex
CREATE INDEX "PayeeDestination_accountId_active_idx" ON "PayeeDestination"("accountId", "active");

-- CreateIndex
CREATE INDEX "FeeConfig_accountId_flow_idx" ON "FeeConfig"("accountId", "flow");

-- CreateIndex
CREATE INDEX "SecurePayment_accountId_idx" ON "SecurePayment"("accountId");

-- CreateIndex
CREATE INDEX "SecurePayment_status_expiresAt_idx" ON "SecurePayment"("status", "expiresAt");

-- CreateIndex
CREATE UNIQUE INDEX "SecurePaymentRequest_requestId_key" ON "SecurePaymentRequest"("requestId");

-- AddForeignKey
ALTER TABLE "PayeeDestination" ADD CONSTRAINT "PayeeDestination_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FeeConfig" ADD CONSTRAINT "FeeConfig_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SecurePayment" ADD CONSTRAINT "SecurePayment_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SecurePaymentRequest" ADD CONSTRAINT "SecurePaymentRequest_securePaymentToken_fkey" FOREIGN KEY ("securePaymentToken") REFERENCES "SecurePayment"("token") ON DELETE CASCADE ON UPDATE CASCADE;
