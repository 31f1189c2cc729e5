-- Issue 27 item 5: the webhook log shows what each attempt sent and got back (headers with
-- signatures masked, the response body's first 4 KiB with secret-like values masked), and a
-- merchant can cancel a payment link (it becomes expired, cancelledAt says it was cancelled).
ALTER TABLE "WebhookAttempt" ADD COLUMN     "requestHeaders" JSONB,
ADD COLUMN     "responseBody" TEXT,
ADD COLUMN     "responseTruncated" BOOLEAN NOT NULL DEFAULT false;

ALTER TABLE "SecurePayment" ADD COLUMN     "cancelledAt" TIMESTAMP(3);
