-- #30 mail: one row per email about a payment (lib/mail), and the outbox events whose emails are planned.
-- CreateEnum
CREATE TYPE "MailKind" AS ENUM ('payer_receipt', 'payee_notification');

-- CreateEnum
CREATE TYPE "MailStatus" AS ENUM ('pending', 'sent', 'failed');

-- AlterTable
ALTER TABLE "OutboxEvent" ADD COLUMN     "mailPlannedAt" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "MailMessage" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "kind" "MailKind" NOT NULL,
    "to" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "status" "MailStatus" NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,
    "nextAttemptAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "leaseUntil" TIMESTAMP(3),
    "sentAt" TIMESTAMP(3),
    "paymentId" TEXT NOT NULL,
    "eventId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "MailMessage_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "MailMessage_status_nextAttemptAt_idx" ON "MailMessage"("status", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "MailMessage_accountId_createdAt_idx" ON "MailMessage"("accountId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "MailMessage_kind_paymentId_to_key" ON "MailMessage"("kind", "paymentId", "to");

-- CreateIndex
CREATE INDEX "OutboxEvent_type_mailPlannedAt_createdAt_idx" ON "OutboxEvent"("type", "mailPlannedAt", "createdAt");

-- AddForeignKey
ALTER TABLE "MailMessage" ADD CONSTRAINT "MailMessage_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Events confirmed before this migration are not mailed: an upgrade must not send a backlog of old receipts.
UPDATE "OutboxEvent" SET "mailPlannedAt" = "createdAt" WHERE "type" = 'payment.confirmed';
