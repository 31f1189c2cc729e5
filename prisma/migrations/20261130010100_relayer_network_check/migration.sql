-- #31: RelayedTransaction.network allows NETWORK_IDS only, as every network column (prisma/schema/base.prisma says why).
ALTER TABLE "RelayedTransaction" ADD CONSTRAINT "RelayedTransaction_network_check"
  CHECK ("network" IN ('mainnet', 'arbitrum-one', 'optimism', 'base', 'matic', 'bsc', 'tron', 'sepolia'));
