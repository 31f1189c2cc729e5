import type { ClientIdPrincipal } from "@/lib/auth/api-credentials";
import { addressKey, sameAddress } from "@/lib/chain/address";
import { AppError } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";

/**
 * What a client ID may make the account's receiving destination. A client ID is a public
 * identifier (it ships in a frontend, and an Origin header is forgeable outside browsers): it
 * names the account, nothing more. The EIP-712 signature proves control of one wallet, not
 * authority over the account, so through a client ID a wallet becomes the account's destination
 * only when the account already trusts that wallet:
 * - a wallet user of the account (it could sign in and register itself with its session);
 * - the wallet of the account's active destination (the payee changes its token or network);
 * - the client ID's own bound destination (set by onboarding), re-activated.
 * A client ID bound to a destination registers nothing else: its links pay that destination
 * (403, as a secure payment naming another destination than the bound one).
 * Anyone else's wallet would otherwise redirect the account's incoming payments.
 */
export async function assertClientMayRegister(
  tx: Prisma.TransactionClient,
  principal: Pick<ClientIdPrincipal, "accountId" | "clientId">,
  walletAddress: string,
  destinationId: string,
): Promise<void> {
  const client = await tx.clientId.findUnique({ where: { id: principal.clientId }, select: { boundDestinationId: true } });
  const bound = client?.boundDestinationId ?? null;
  if (bound !== null) {
    if (bound === destinationId) return;
    throw new AppError(
      "destination_mismatch",
      "This client ID is bound to another destination: its links pay there (register other destinations from a session)",
    );
  }
  const user = await tx.user.findFirst({ where: { accountId: principal.accountId, walletAddress: addressKey(walletAddress) } });
  if (user) return;
  const active = await tx.payeeDestination.findFirst({ where: { accountId: principal.accountId, active: true } });
  if (active && sameAddress(active.walletAddress, walletAddress)) return;
  throw new AppError(
    "forbidden",
    "With a client ID, only the account's own wallet (or its active destination's wallet) can be registered: " +
      "register another wallet from a session",
  );
}
