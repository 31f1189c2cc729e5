import { type Db, db } from "@/lib/db";

/** The client the invoice is written with: the request's or link's transaction. */
type Tx = Pick<Db, "$queryRaw" | "invoice">;

import { AppError } from "@/lib/errors";
import type { Invoice, Prisma } from "@/lib/generated/prisma/client";
import { ulid } from "@/lib/ids";
import { lineView } from "@/lib/invoices/compute";
import type { PreparedInvoice } from "@/lib/invoices/prepare";

/**
 * Numbering and storage. Call inside the transaction that creates the request or link: the
 * counter row is taken with INSERT … ON CONFLICT DO UPDATE … RETURNING, which locks it until that
 * transaction ends, so
 *  - two concurrent invoices of an account never share a sequence (the second waits for the first),
 *  - a create that rolls back (a refused request, a failed insert) rolls its increment back too: no gap,
 *  - an Idempotency-Key replay creates nothing and answers with the first invoice (lib/http/idempotency.ts).
 *
 * Every invoice takes the account's next sequence (1, 2, …). Without `number` it is numbered
 * `INV-` + the sequence on 6 digits (INV-000042); a given `number` must be unused in the account
 * (409 naming invoice.number). An automatic number a given one already took is skipped.
 */

const taken = (number: string) =>
  new AppError("conflict", `Invoice number ${number} is already used by another invoice of this account`, {
    errors: [{ field: "invoice.number", message: `${number} is already used by another invoice of this account` }],
  });

export const autoNumber = (sequence: number) => `INV-${String(sequence).padStart(6, "0")}`;

async function nextSequence(client: Tx, accountId: string): Promise<number> {
  const rows = await client.$queryRaw<{ seq: number }[]>`
    INSERT INTO "InvoiceCounter" ("accountId", "next") VALUES (${accountId}, 2)
    ON CONFLICT ("accountId") DO UPDATE SET "next" = "InvoiceCounter"."next" + 1
    RETURNING "next" - 1 AS seq`;
  return Number(rows[0]!.seq);
}

const numberUsed = async (client: Tx, accountId: string, number: string) =>
  (await client.invoice.count({ where: { accountId, number } })) > 0;

export type InvoiceOwner = { accountId: string } & ({ requestId: string } | { securePaymentToken: string });

/** `tx`: the transaction of the request or link (pass it: the row must be written in the same one). */
export async function storeInvoice(p: PreparedInvoice, owner: InvoiceOwner, tx: Tx = db()): Promise<Invoice> {
  let sequence = await nextSequence(tx, owner.accountId);
  let number: string;
  if (p.number !== null) {
    if (await numberUsed(tx, owner.accountId, p.number)) throw taken(p.number);
    number = p.number;
  } else {
    number = autoNumber(sequence);
    // A given number (say "INV-000007") took this automatic one: the next sequence is the invoice's.
    for (let tries = 0; await numberUsed(tx, owner.accountId, number); tries++) {
      if (tries >= 1000) throw new AppError("conflict", "No free automatic invoice number: pass invoice.number");
      sequence = await nextSequence(tx, owner.accountId);
      number = autoNumber(sequence);
    }
  }
  const c = p.computed;
  try {
    return await tx.invoice.create({
      data: {
        id: ulid(),
        accountId: owner.accountId,
        sequence,
        number,
        requestId: "requestId" in owner ? owner.requestId : null,
        securePaymentToken: "securePaymentToken" in owner ? owner.securePaymentToken : null,
        currency: p.currency,
        issueDate: p.issueDate,
        dueDate: p.dueDate,
        customer: (p.customer ?? undefined) as Prisma.InputJsonValue | undefined,
        notes: p.notes,
        lines: c.lines.map(lineView) as unknown as Prisma.InputJsonValue,
        subtotal: c.subtotal,
        taxTotal: c.taxTotal,
        total: c.total,
      },
    });
  } catch (err) {
    // Only a number given by the caller can collide here (the counter row serialises the account's creates).
    if ((err as { code?: string }).code === "P2002") throw taken(number);
    throw err;
  }
}
