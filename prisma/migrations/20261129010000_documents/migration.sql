-- #30 documents: invoices (numbered per account), signed receipts, the payer's email on links (lib/invoices, lib/receipts, lib/mail).
-- AlterTable
ALTER TABLE "SecurePayment" ADD COLUMN     "collectPayerEmail" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "payerEmail" TEXT;

-- CreateTable
CREATE TABLE "Invoice" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "sequence" INTEGER NOT NULL,
    "number" TEXT NOT NULL,
    "requestId" TEXT,
    "securePaymentToken" TEXT,
    "currency" TEXT NOT NULL,
    "issueDate" TIMESTAMP(3) NOT NULL,
    "dueDate" TIMESTAMP(3),
    "customer" JSONB,
    "notes" TEXT,
    "lines" JSONB NOT NULL,
    "subtotal" TEXT NOT NULL,
    "taxTotal" TEXT NOT NULL,
    "total" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Invoice_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "InvoiceCounter" (
    "accountId" TEXT NOT NULL,
    "next" INTEGER NOT NULL DEFAULT 1,

    CONSTRAINT "InvoiceCounter_pkey" PRIMARY KEY ("accountId")
);

-- CreateTable
CREATE TABLE "Receipt" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "paymentId" TEXT,
    "refundId" TEXT,
    "keyId" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "signature" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Receipt_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Invoice_requestId_key" ON "Invoice"("requestId");

-- CreateIndex
CREATE UNIQUE INDEX "Invoice_securePaymentToken_key" ON "Invoice"("securePaymentToken");

-- CreateIndex
CREATE INDEX "Invoice_accountId_createdAt_idx" ON "Invoice"("accountId", "createdAt" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "Invoice_accountId_sequence_key" ON "Invoice"("accountId", "sequence");

-- CreateIndex
CREATE UNIQUE INDEX "Invoice_accountId_number_key" ON "Invoice"("accountId", "number");

-- CreateIndex
CREATE UNIQUE INDEX "Receipt_paymentId_key" ON "Receipt"("paymentId");

-- CreateIndex
CREATE UNIQUE INDEX "Receipt_refundId_key" ON "Receipt"("refundId");

-- CreateIndex
CREATE INDEX "Receipt_accountId_createdAt_idx" ON "Receipt"("accountId", "createdAt" DESC);

-- AddForeignKey
ALTER TABLE "Invoice" ADD CONSTRAINT "Invoice_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Invoice" ADD CONSTRAINT "Invoice_requestId_fkey" FOREIGN KEY ("requestId") REFERENCES "PaymentRequest"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Invoice" ADD CONSTRAINT "Invoice_securePaymentToken_fkey" FOREIGN KEY ("securePaymentToken") REFERENCES "SecurePayment"("token") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "InvoiceCounter" ADD CONSTRAINT "InvoiceCounter_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Receipt" ADD CONSTRAINT "Receipt_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Receipt" ADD CONSTRAINT "Receipt_paymentId_fkey" FOREIGN KEY ("paymentId") REFERENCES "Payment"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Receipt" ADD CONSTRAINT "Receipt_refundId_fkey" FOREIGN KEY ("refundId") REFERENCES "Refund"("id") ON DELETE CASCADE ON UPDATE CASCADE;



-- A receipt is of exactly one transfer: a payment or a refund.
ALTER TABLE "Receipt" ADD CONSTRAINT "Receipt_one_subject" CHECK (("paymentId" IS NULL) <> ("refundId" IS NULL));
-- Invoice numbers start at 1; a counter never goes below its first value.
ALTER TABLE "Invoice" ADD CONSTRAINT "Invoice_sequence_positive" CHECK ("sequence" >= 1);
ALTER TABLE "InvoiceCounter" ADD CONSTRAINT "InvoiceCounter_next_positive" CHECK ("next" >= 1);
