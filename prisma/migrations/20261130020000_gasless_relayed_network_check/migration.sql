-- RelayedTransaction.network holds a NetworkId like every other network column: the same CHECK
-- (prisma/schema/base.prisma says why; tests/db/migrations.test.ts checks every network column has it).
ALTER TABLE "RelayedTransaction" ADD CONSTRAINT "RelayedTransaction_network_check"
  CHECK ("network" IN ('mainnet', 'arbitrum-one', 'optimism', 'base', 'matic', 'bsc', 'tron', 'sepolia'));
