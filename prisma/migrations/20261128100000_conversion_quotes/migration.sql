-- Quoted conversion on Tron (issue 29 item 8): the token amounts fixed for a fiat invoice's pay plan, and the payment each credited.
-- CreateTable
CREATE TABLE "ConversionQuote" (
    "id" TEXT NOT NULL,
    "requestId" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "invoiceCurrency" TEXT NOT NULL,
    "paymentCurrency" TEXT NOT NULL,
    "requestAmount" DECIMAL(78,0) NOT NULL,
    "feeAmount" DECIMAL(78,0) NOT NULL,
    "amountIn" DECIMAL(78,0) NOT NULL,
    "feeAmountIn" DECIMAL(78,0) NOT NULL,
    "feeAddress" TEXT,
    "rate" DECIMAL(40,18) NOT NULL,
    "rateSource" TEXT NOT NULL,
    "rateNetwork" TEXT NOT NULL,
    "ratePath" TEXT[],
    "rateUpdatedAt" TIMESTAMP(3) NOT NULL,
    "amountInUsd" DECIMAL(40,8),
    "createdAt" TIMESTAMP(3) NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "paymentId" TEXT,

    CONSTRAINT "ConversionQuote_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ConversionQuote_paymentId_key" ON "ConversionQuote"("paymentId");

-- CreateIndex
CREATE INDEX "ConversionQuote_requestId_createdAt_idx" ON "ConversionQuote"("requestId", "createdAt");


