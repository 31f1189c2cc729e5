-- Payment search (GET /v2/payments, /dashboard/payments) by wallet or transaction hash, case-insensitive,
-- within one account: lib/requests/search-prefilter.ts finds the candidates through these, so such a
-- search reads the matching payments, not every payment of the account (issue 33, the search curve).
-- Expression indexes: Prisma's schema cannot declare them and `migrate diff` leaves them alone.
CREATE INDEX "Payment_accountId_lower_payer_idx" ON "Payment" ("accountId", lower("payer"));
CREATE INDEX "Payment_accountId_lower_payee_idx" ON "Payment" ("accountId", lower("payee"));
CREATE INDEX "Payment_accountId_lower_txHash_idx" ON "Payment" ("accountId", lower("txHash"));
