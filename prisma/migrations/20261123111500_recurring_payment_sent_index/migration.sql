-- The executor's housekeeping reads unmined sends by status and time (lib/recurring/executor.ts).
CREATE INDEX "RecurringPayment_status_sentAt_idx" ON "RecurringPayment"("status", "sentAt");
