-- One active payee destination per account, enforced by the database (a partial unique index;
-- Prisma's schema language cannot express it, so it lives only here). Accounts that reached
-- two active destinations through the old upsert keep the newest one active.
UPDATE "PayeeDestination" d
SET "active" = false, "deactivatedAt" = COALESCE(d."deactivatedAt", CURRENT_TIMESTAMP)
WHERE d."active" AND EXISTS (
  SELECT 1 FROM "PayeeDestination" n
  WHERE n."accountId" = d."accountId" AND n."active" AND (n."createdAt", n."id") > (d."createdAt", d."id")
);

CREATE UNIQUE INDEX "PayeeDestination_one_active_per_account" ON "PayeeDestination" ("accountId") WHERE "active";
