-- Issue 28 (lane excess): deposit addresses that can send money back (Duebill's DuebillDepositAddress), what
-- reached a deposit address after its link expired (the `late` label), a return in flight (crash safety), and
-- which payments are a deposit address's forwards (their blockTime is the forward's, not the payer's).
-- CreateEnum
CREATE TYPE "DepositContract" AS ENUM ('request_network', 'duebill');

-- AlterTable
ALTER TABLE "DepositAddress" ADD COLUMN     "autoReturnBlocked" TEXT,
ADD COLUMN     "closesAt" TIMESTAMP(3),
ADD COLUMN     "contract" "DepositContract" NOT NULL DEFAULT 'request_network',
ADD COLUMN     "lateAmount" DECIMAL(78,0) NOT NULL DEFAULT 0,
ADD COLUMN     "pendingReturn" "RefundReason";

-- AlterTable
ALTER TABLE "Payment" ADD COLUMN     "depositAddress" TEXT;
