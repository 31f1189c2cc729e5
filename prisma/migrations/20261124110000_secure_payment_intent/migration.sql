-- AlterTable
ALTER TABLE "SecurePayment" ADD COLUMN     "intentAt" TIMESTAMP(3),
ADD COLUMN     "intentPayer" TEXT,
ADD COLUMN     "intentTxHash" TEXT;


