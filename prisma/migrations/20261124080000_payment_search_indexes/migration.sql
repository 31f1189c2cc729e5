-- CreateIndex
CREATE INDEX "Payment_blockTime_id_idx" ON "Payment"("blockTime" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "PaymentRequest_accountId_id_idx" ON "PaymentRequest"("accountId", "id");

-- CreateIndex
CREATE INDEX "PaymentRequest_accountId_reference_idx" ON "PaymentRequest"("accountId", "reference");

-- CreateIndex
CREATE INDEX "PaymentRequest_accountId_paymentReference_idx" ON "PaymentRequest"("accountId", "paymentReference");


