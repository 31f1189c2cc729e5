-- AlterEnum
ALTER TYPE "SecurePaymentType" ADD VALUE 'multicall';

-- CreateTable
CREATE TABLE "MulticallChild" (
    "parentToken" TEXT NOT NULL,
    "childToken" TEXT NOT NULL,
    "position" INTEGER NOT NULL,

    CONSTRAINT "MulticallChild_pkey" PRIMARY KEY ("parentToken","childToken")
);

-- CreateIndex
CREATE INDEX "MulticallChild_childToken_idx" ON "MulticallChild"("childToken");

-- AddForeignKey
ALTER TABLE "MulticallChild" ADD CONSTRAINT "MulticallChild_parentToken_fkey" FOREIGN KEY ("parentToken") REFERENCES "SecurePayment"("token") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "MulticallChild" ADD CONSTRAINT "MulticallChild_childToken_fkey" FOREIGN KEY ("childToken") REFERENCES "SecurePayment"("token") ON DELETE CASCADE ON UPDATE CASCADE;
