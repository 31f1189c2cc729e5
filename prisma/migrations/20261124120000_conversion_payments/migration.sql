-- AlterTable
ALTER TABLE "PaymentRequest" ADD COLUMN     "isConversion" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "Payment" ADD COLUMN     "amountInUsd" DECIMAL(40,8),
ADD COLUMN     "conversionRate" DECIMAL(40,18),
ADD COLUMN     "invoiceAmount" DECIMAL(78,0);
