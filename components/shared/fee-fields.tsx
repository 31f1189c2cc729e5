"use client";

import type { CheckedField } from "@/components/shared/use-checked-form";
import { Field, SelectField } from "@/components/ui/field";
import { FEE_MAX_LENGTHS } from "@/lib/forms/fee-form";

/**
 * The fee's fields (lib/forms/fee-form.ts: setFeeConfig's rules) with the same labels wherever a fee
 * is set: the merchant's Settings and the operator's account page. `idPrefix` keeps ids unique.
 */
export function FeeFields({ idPrefix, field }: { idPrefix: string; field: CheckedField }) {
  return (
    <>
      <Field
        id={`${idPrefix}-bps`}
        size="sm"
        label="Fee (basis points, 100 = 1%)"
        inputMode="numeric"
        maxLength={FEE_MAX_LENGTHS.bps}
        placeholder="250"
        required
        {...field("bps")}
      />
      <Field
        id={`${idPrefix}-cap`}
        size="sm"
        label="Cap (USD, optional)"
        inputMode="decimal"
        maxLength={FEE_MAX_LENGTHS.cap}
        placeholder="5.00"
        {...field("cap")}
      />
      <SelectField id={`${idPrefix}-bearer`} size="sm" label="Paid by" {...field("bearer")}>
        <option value="payer">the payer (added on top)</option>
        <option value="payee">the payee (taken from the amount)</option>
      </SelectField>
      <Field
        id={`${idPrefix}-label`}
        size="sm"
        label="Label shown to payers"
        placeholder="Platform fee"
        maxLength={FEE_MAX_LENGTHS.label}
        {...field("label")}
      />
      <Field
        id={`${idPrefix}-evm`}
        size="sm"
        label="Fee address (EVM)"
        className="font-mono"
        maxLength={FEE_MAX_LENGTHS.evm}
        placeholder="0x…"
        autoComplete="off"
        spellCheck={false}
        {...field("evm")}
      />
      <Field
        id={`${idPrefix}-tron`}
        size="sm"
        label="Fee address (Tron)"
        className="font-mono"
        maxLength={FEE_MAX_LENGTHS.tron}
        placeholder="T…"
        autoComplete="off"
        spellCheck={false}
        {...field("tron")}
      />
    </>
  );
}
