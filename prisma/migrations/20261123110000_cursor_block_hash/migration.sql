-- Detection notices a chain that changed under its cursor (lib/detection/sweep.ts).
ALTER TABLE "ChainCursor" ADD COLUMN "lastBlockHash" TEXT;
