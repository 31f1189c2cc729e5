import { describe, expect, it } from "vitest";
import { csvCell, csvRecord, UTF8_BOM } from "@/lib/exports/csv";
import { parseRfc4180 } from "@/tests/exports/rfc4180";

/**
 * The CSV encoding against fixed text written from RFC 4180 (not from the code) and against the
 * test's own RFC 4180 reader, plus the spreadsheet formula guard of docs/guides/exports.md.
 */
describe("CSV cells and records (RFC 4180)", () => {
  it("writes fixed expected text: CRLF, commas and quotes enclosed, quotes doubled", () => {
    expect(csvRecord(["a", "b,c", 'say "hi"', "line1\nline2", "cr\rhere", "", null, 7])).toBe(
      'a,"b,c","say ""hi""","line1\nline2","cr\rhere",,,7\r\n',
    );
    expect(csvCell("plain")).toBe("plain");
    expect(csvCell('"')).toBe('""""');
    expect(UTF8_BOM).toBe("\uFEFF");
    expect(Buffer.from(UTF8_BOM, "utf8").toString("hex")).toBe("efbbbf");
  });

  it("puts an apostrophe before cells a spreadsheet could run as a formula", () => {
    expect(csvCell("=1+2")).toBe("'=1+2");
    expect(csvCell("+SUM(A1)")).toBe("'+SUM(A1)");
    expect(csvCell("-2+3")).toBe("'-2+3");
    expect(csvCell("@cmd")).toBe("'@cmd");
    expect(csvCell("\tx")).toBe("'\tx");
    expect(csvCell("\r=x")).toBe(`"'\r=x"`);
    expect(csvCell('=HYPERLINK("http://evil.example","x")')).toBe(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
    // Plain numbers are data, not formulas: a refund's negative amount stays numeric.
    expect(csvCell("-12.5")).toBe("-12.5");
    expect(csvCell("-0.000001")).toBe("-0.000001");
    expect(csvCell("-1e3")).toBe("'-1e3");
    expect(csvCell("a=b")).toBe("a=b");
  });

  it("round-trips awkward values through an independent RFC 4180 reader", () => {
    const values = ["a,b", 'q"uote', "multi\r\nline", "", "ünïcødé €", "  spaces  ", "=cmd|' /C calc'!A0", "x\ny"];
    const text = csvRecord(values) + csvRecord(["1", "2", "3", "4", "5", "6", "7", "8"]);
    const parsed = parseRfc4180(text);
    expect(parsed).toHaveLength(2);
    expect(parsed[0]).toEqual(values.map((v) => (v.startsWith("=") ? `'${v}` : v)));
    expect(parsed[1]).toEqual(["1", "2", "3", "4", "5", "6", "7", "8"]);
  });

  it("the reader itself refuses what RFC 4180 does not allow (so it can fail)", () => {
    expect(() => parseRfc4180("a\nb\r\n")).toThrow(/bare LF/);
    expect(() => parseRfc4180('a"b\r\n')).toThrow(/quote inside/);
    expect(() => parseRfc4180('"ab\r\n')).toThrow(/unterminated/);
  });
});
