-- AlterTable
ALTER TABLE "RequestRecurrence" ADD COLUMN     "reminderDue" TIMESTAMP(3),
ADD COLUMN     "reminderNextAt" TIMESTAMP(3);
