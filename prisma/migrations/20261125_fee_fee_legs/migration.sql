-- AlterTable
ALTER TABLE "PaymentRequest" ADD COLUMN     "feeLegs" JSONB,
ADD COLUMN     "subStatus" TEXT;

-- AlterTable
ALTER TABLE "Payment" ADD COLUMN     "invoiceFeeAmount" DECIMAL(78,0);
