import { Fragment } from "react";

/**
 * An address a payer compares with what their wallet shows: in groups of four characters that
 * wrap between groups (never inside one), so a narrow screen shows it on two even lines.
 */
export function Address({ value, className = "font-mono text-[13px]" }: { value: string; className?: string }) {
  const head = value.startsWith("0x") ? "0x" : "";
  const groups = value.slice(head.length).match(/.{1,4}/g) ?? [];
  return (
    <span className={className} title={value}>
      {head}
      {groups.map((g, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the groups of one fixed string, never reordered
        <Fragment key={i}>
          {i > 0 ? <wbr /> : null}
          {g}
        </Fragment>
      ))}
    </span>
  );
}
