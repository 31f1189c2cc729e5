import type { SignatureCheck } from "@/lib/receipts/sign";

/** The server's verdict on the receipt's signature, with the key it names. */
export function SignatureCheckBadge({ check }: { check: SignatureCheck }) {
  if (check.valid)
    return (
      <p className="mt-4 flex items-start gap-2 rounded-lg bg-emerald-50 px-3 py-2 text-sm text-emerald-900" role="status">
        <span aria-hidden="true" className="font-semibold">
          ✓
        </span>
        <span>
          Signature valid — key <span className="font-mono text-[13px]">{check.keyId}</span>
          {check.status === "retired" ? " (retired: it signed this receipt before a rotation)" : null}
        </span>
      </p>
    );
  return (
    <p className="mt-4 flex items-start gap-2 rounded-lg bg-rose-50 px-3 py-2 text-sm text-rose-900" role="alert">
      <span aria-hidden="true" className="font-semibold">
        ✗
      </span>
      <span>Signature not valid: {check.reason}</span>
    </p>
  );
}
