-- CreateTable
CREATE TABLE "CrossChainQuote" (
    "id" TEXT NOT NULL,
    "requestId" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "routeId" TEXT NOT NULL,
    "sourceNetwork" TEXT NOT NULL,
    "sourceToken" TEXT NOT NULL,
    "sourceAmount" DECIMAL(78,0) NOT NULL,
    "payer" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "answer" TEXT NOT NULL,
    "sourceTxHash" TEXT,
    "destinationTxHash" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CrossChainQuote_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "CrossChainQuote_requestId_createdAt_idx" ON "CrossChainQuote"("requestId", "createdAt");
