-- Issue 24: an API cancel also cancels the schedule on chain (cancelSchedule, by the relayer), retried
-- by the sweep until the contract says cancelled (lib/recurring/chain-cancel.ts).
CREATE TYPE "ChainCancelStatus" AS ENUM ('not_needed', 'pending', 'sent', 'confirmed');

ALTER TABLE "RecurringSchedule" ADD COLUMN     "cancelAttempts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "cancelConfirmedAt" TIMESTAMP(3),
ADD COLUMN     "cancelError" TEXT,
ADD COLUMN     "cancelNonce" INTEGER,
ADD COLUMN     "cancelSentAt" TIMESTAMP(3),
ADD COLUMN     "cancelTxHash" TEXT,
ADD COLUMN     "chainCancel" "ChainCancelStatus";

CREATE INDEX "RecurringSchedule_chainCancel_network_idx" ON "RecurringSchedule"("chainCancel", "network");

-- Schedules cancelled before this change were cancelled in the database only: the ones whose permit
-- the relayer holds are cancelled on chain by the next sweep; the others never could be triggered.
UPDATE "RecurringSchedule" SET "chainCancel" = CASE WHEN "permitSignature" IS NULL THEN 'not_needed' ELSE 'pending' END::"ChainCancelStatus"
WHERE "status" = 'cancelled';
