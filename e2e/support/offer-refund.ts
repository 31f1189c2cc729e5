/**
 * Writes an offered refund (a prepared Refund row, sender payee, reason excess | underpaid | late)
 * with lib/refunds' insertRefund — the one way a Refund row is created — for the journeys, before
 * the wrong-amount policy that offers them runs in this build. Run through tsx in its own process
 * (the generated Prisma client is ESM with import.meta, which Playwright's loader does not run):
 *   tsx e2e/support/offer-refund.ts '{"requestId":"01…","to":"0x…","units":"2000000","reason":"excess"}'
 * Prints the refund's id.
 */
import { db, disconnectDb } from "@/lib/db";
import { insertRefund } from "@/lib/refunds";

async function main(): Promise<void> {
  const args = JSON.parse(process.argv[2] ?? "{}") as {
    requestId: string;
    to: string;
    units: string;
    reason: "excess" | "underpaid" | "late";
  };
  const request = await db().paymentRequest.findUniqueOrThrow({ where: { id: args.requestId } });
  const refund = await db().$transaction((tx) =>
    insertRefund(tx, request, { to: args.to, amount: BigInt(args.units), reason: args.reason, sender: "payee" }),
  );
  console.log(refund.id);
}

main()
  .catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(() => void disconnectDb());
