-- AlterTable
ALTER TABLE "User" DROP COLUMN "failedLogins",
DROP COLUMN "lockedUntil";

-- CreateTable
CREATE TABLE "LoginThrottle" (
    "emailKey" TEXT NOT NULL,
    "failedLogins" INTEGER NOT NULL DEFAULT 0,
    "lockedUntil" TIMESTAMP(3),
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "LoginThrottle_pkey" PRIMARY KEY ("emailKey")
);

-- CreateIndex
CREATE INDEX "LoginThrottle_updatedAt_idx" ON "LoginThrottle"("updatedAt");
