-- /admin/accounts: keyset pages newest first, and prefix search on the name (a range scan; the
-- email and wallet searches use User's unique indexes).

-- CreateIndex
CREATE INDEX "Account_createdAt_id_idx" ON "Account"("createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "Account_name_idx" ON "Account"("name");
