-- Safe payers of secure payment links (issue 29): the Safe transaction awaiting its owners, one per link.

-- CreateTable
CREATE TABLE "SafePaymentIntent" (
    "token" TEXT NOT NULL,
    "safeTxHash" TEXT NOT NULL,
    "safeAddress" TEXT,
    "chainId" INTEGER NOT NULL,
    "deadline" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SafePaymentIntent_pkey" PRIMARY KEY ("token"),
    -- Stored lowercase, as lib/secure-payments/safe.ts writes it.
    CONSTRAINT "SafePaymentIntent_safeTxHash_check" CHECK ("safeTxHash" ~ '^0x[0-9a-f]{64}$')
);

-- AddForeignKey
ALTER TABLE "SafePaymentIntent" ADD CONSTRAINT "SafePaymentIntent_token_fkey" FOREIGN KEY ("token") REFERENCES "SecurePayment"("token") ON DELETE CASCADE ON UPDATE CASCADE;
