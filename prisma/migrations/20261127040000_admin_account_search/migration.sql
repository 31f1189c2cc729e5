-- /admin/accounts: keyset pages newest first, and prefix search on name, email and wallet
-- (text_pattern_ops: LIKE 'q%' uses the index whatever the database's collation).

-- CreateIndex
CREATE INDEX "Account_createdAt_id_idx" ON "Account"("createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "Account_name_prefix_idx" ON "Account"("name" text_pattern_ops);

-- CreateIndex
CREATE INDEX "User_email_prefix_idx" ON "User"("email" text_pattern_ops);

-- CreateIndex
CREATE INDEX "User_walletAddress_prefix_idx" ON "User"("walletAddress" text_pattern_ops);
