-- Exports (issue 30, lib/exports): the account's requests and refunds newest first, keyset-paged on
-- (createdAt, id) in batches of 1 000, so an export of any size reads each batch from an index instead of
-- sorting the account's rows. Payments already have (accountId, blockTime DESC, id DESC).

-- CreateIndex
CREATE INDEX "PaymentRequest_accountId_createdAt_id_idx" ON "PaymentRequest"("accountId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "Refund_accountId_createdAt_id_idx" ON "Refund"("accountId", "createdAt" DESC, "id" DESC);
