-- payerEoaAddress beside payerAddress (issue 29): the externally owned account behind a payment's
-- payer. Until now `payer` was the transaction's sender (or the attributed payer of deposit,
-- recurring and cross-chain payments): for those rows the EOA is the payer itself.

-- AlterTable
ALTER TABLE "Payment" ADD COLUMN "payerEoa" TEXT;

UPDATE "Payment" SET "payerEoa" = "payer" WHERE "payer" IS NOT NULL;
