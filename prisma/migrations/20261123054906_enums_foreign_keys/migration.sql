-- Closed sets become enums, network columns get CHECK constraints, three missing foreign keys,
-- and OutboxEvent.payload becomes text. Existing rows are kept: columns are converted in place
-- (USING col::"Enum"). Nothing in the app deletes payment requests, destinations or client IDs,
-- so no row should break a new foreign key; a dangling destination binding is cleared (what
-- ON DELETE SET NULL would have done), other dangling references make the migration fail,
-- as a whole, with the name of the key, rather than delete data here.

-- CreateEnum
CREATE TYPE "ChainKind" AS ENUM ('evm', 'tron');

-- CreateEnum
CREATE TYPE "PaymentDirection" AS ENUM ('incoming', 'outgoing');

-- CreateEnum
CREATE TYPE "SecurePaymentType" AS ENUM ('single', 'batch');

-- CreateEnum
CREATE TYPE "ExecutionKind" AS ENUM ('evm_same_chain', 'evm_cross_chain', 'tron_batch');

-- CreateEnum
CREATE TYPE "IdentityMode" AS ENUM ('client_id', 'manual_dashboard');

-- AlterTable: text, not jsonb, so the event body keeps its key order.
ALTER TABLE "OutboxEvent" ALTER COLUMN "payload" SET DATA TYPE TEXT USING "payload"::text;

-- AlterTable
ALTER TABLE "SecurePayment"
  ALTER COLUMN "direction" SET DATA TYPE "PaymentDirection" USING "direction"::"PaymentDirection",
  ALTER COLUMN "paymentType" SET DATA TYPE "SecurePaymentType" USING "paymentType"::"SecurePaymentType",
  ALTER COLUMN "executionKind" SET DATA TYPE "ExecutionKind" USING "executionKind"::"ExecutionKind",
  ALTER COLUMN "identityMode" SET DATA TYPE "IdentityMode" USING "identityMode"::"IdentityMode";

-- AlterTable
ALTER TABLE "WalletChallenge" ALTER COLUMN "chainKind" SET DATA TYPE "ChainKind" USING "chainKind"::"ChainKind";

-- Network IDs (NETWORK_IDS in lib/chain/networks.ts). Not a Prisma enum: see prisma/schema/base.prisma.
ALTER TABLE "PaymentRequest" ADD CONSTRAINT "PaymentRequest_network_check"
  CHECK ("network" IN ('mainnet', 'arbitrum-one', 'optimism', 'base', 'matic', 'bsc', 'tron', 'sepolia'));
ALTER TABLE "Payment" ADD CONSTRAINT "Payment_network_check"
  CHECK ("network" IN ('mainnet', 'arbitrum-one', 'optimism', 'base', 'matic', 'bsc', 'tron', 'sepolia'));
ALTER TABLE "ChainCursor" ADD CONSTRAINT "ChainCursor_network_check"
  CHECK ("network" IN ('mainnet', 'arbitrum-one', 'optimism', 'base', 'matic', 'bsc', 'tron', 'sepolia'));
ALTER TABLE "PayeeDestination" ADD CONSTRAINT "PayeeDestination_network_check"
  CHECK ("network" IN ('mainnet', 'arbitrum-one', 'optimism', 'base', 'matic', 'bsc', 'tron', 'sepolia'));
ALTER TABLE "SecurePayment" ADD CONSTRAINT "SecurePayment_network_check"
  CHECK ("network" IN ('mainnet', 'arbitrum-one', 'optimism', 'base', 'matic', 'bsc', 'tron', 'sepolia'));

-- AddForeignKey
UPDATE "ClientId" c SET "boundDestinationId" = NULL
WHERE c."boundDestinationId" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "PayeeDestination" d WHERE d."id" = c."boundDestinationId");
ALTER TABLE "ClientId" ADD CONSTRAINT "ClientId_boundDestinationId_fkey" FOREIGN KEY ("boundDestinationId") REFERENCES "PayeeDestination"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SecurePaymentRequest" ADD CONSTRAINT "SecurePaymentRequest_requestId_fkey" FOREIGN KEY ("requestId") REFERENCES "PaymentRequest"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey (ON DELETE CASCADE: an endpoint scoped to a client ID goes with it; SET NULL
-- would widen it to every event of the account)
ALTER TABLE "WebhookEndpoint" ADD CONSTRAINT "WebhookEndpoint_clientId_fkey" FOREIGN KEY ("clientId") REFERENCES "ClientId"("id") ON DELETE CASCADE ON UPDATE CASCADE;
