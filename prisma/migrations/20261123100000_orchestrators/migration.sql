-- Orchestrators (issue 12): client-ID links, onboarding intents, branding, per-client fee overrides, orchestrator webhooks.

-- CreateEnum
CREATE TYPE "ClientIdLinkStatus" AS ENUM ('active', 'unlinked');

-- CreateEnum
CREATE TYPE "WebhookScope" AS ENUM ('integrator', 'orchestrator');

-- DropIndex
DROP INDEX "FeeConfig_accountId_flow_idx";

-- AlterTable
ALTER TABLE "FeeConfig" ADD COLUMN     "clientId" TEXT;

-- AlterTable
ALTER TABLE "SecurePayment" ADD COLUMN     "branding" JSONB;

-- AlterTable
ALTER TABLE "WebhookEndpoint" ADD COLUMN     "scope" "WebhookScope" NOT NULL DEFAULT 'integrator';

-- CreateTable
CREATE TABLE "ClientIdLink" (
    "id" TEXT NOT NULL,
    "clientId" TEXT NOT NULL,
    "orchestratorAccountId" TEXT NOT NULL,
    "status" "ClientIdLinkStatus" NOT NULL DEFAULT 'active',
    "intentId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "unlinkedAt" TIMESTAMP(3),

    CONSTRAINT "ClientIdLink_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "LinkIntent" (
    "id" TEXT NOT NULL,
    "orchestratorAccountId" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "clientIdName" TEXT NOT NULL,
    "domains" TEXT[],
    "externalId" TEXT,
    "kyt" JSONB,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "usedAt" TIMESTAMP(3),
    "createdClientId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "LinkIntent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Branding" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "clientId" TEXT,
    "displayName" TEXT NOT NULL,
    "logoUrl" TEXT,
    "accentColor" TEXT,
    "supportUrl" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Branding_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ClientIdLink_clientId_key" ON "ClientIdLink"("clientId");

-- CreateIndex
CREATE UNIQUE INDEX "ClientIdLink_intentId_key" ON "ClientIdLink"("intentId");

-- CreateIndex
CREATE INDEX "ClientIdLink_orchestratorAccountId_status_createdAt_idx" ON "ClientIdLink"("orchestratorAccountId", "status", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "LinkIntent_tokenHash_key" ON "LinkIntent"("tokenHash");

-- CreateIndex
CREATE UNIQUE INDEX "LinkIntent_createdClientId_key" ON "LinkIntent"("createdClientId");

-- CreateIndex
CREATE INDEX "LinkIntent_orchestratorAccountId_createdAt_idx" ON "LinkIntent"("orchestratorAccountId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "Branding_accountId_clientId_key" ON "Branding"("accountId", "clientId");

-- CreateIndex
CREATE INDEX "FeeConfig_accountId_flow_clientId_idx" ON "FeeConfig"("accountId", "flow", "clientId");

-- AddForeignKey
ALTER TABLE "ClientIdLink" ADD CONSTRAINT "ClientIdLink_clientId_fkey" FOREIGN KEY ("clientId") REFERENCES "ClientId"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ClientIdLink" ADD CONSTRAINT "ClientIdLink_orchestratorAccountId_fkey" FOREIGN KEY ("orchestratorAccountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ClientIdLink" ADD CONSTRAINT "ClientIdLink_intentId_fkey" FOREIGN KEY ("intentId") REFERENCES "LinkIntent"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LinkIntent" ADD CONSTRAINT "LinkIntent_orchestratorAccountId_fkey" FOREIGN KEY ("orchestratorAccountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Branding" ADD CONSTRAINT "Branding_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- One default branding per orchestrator (NULL clientIds are distinct in the unique index above).
CREATE UNIQUE INDEX "Branding_accountId_default_key" ON "Branding"("accountId") WHERE "clientId" IS NULL;
