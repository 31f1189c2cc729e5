-- GET /v2/request?walletAddress= (issue 29, lib/requests/list-requests.ts): the account's requests of
-- a wallet newest first, as payee and as payer (one ordered index per column, each serving one
-- branch of the list's union), and their count (index-only scans of (accountId, payee|payer),
-- whose equal keys B-tree deduplication stores once: ~30 times smaller than the ordered ones).

-- CreateIndex
CREATE INDEX "PaymentRequest_accountId_payee_createdAt_idx" ON "PaymentRequest"("accountId", "payee", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "PaymentRequest_accountId_payer_createdAt_idx" ON "PaymentRequest"("accountId", "payer", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "PaymentRequest_accountId_payee_idx" ON "PaymentRequest"("accountId", "payee");

-- CreateIndex
CREATE INDEX "PaymentRequest_accountId_payer_idx" ON "PaymentRequest"("accountId", "payer");
