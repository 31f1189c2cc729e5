/**
 * A CSV reader written from RFC 4180 section 2 for the tests, independent of lib/exports/csv.ts:
 * records end with CRLF (rule 1, a last CRLF optional, rule 2); fields are separated by commas
 * (rule 4); a field may be enclosed in double quotes, and must be when it holds CRLF, a double quote or
 * a comma (rule 6); a double quote inside an enclosed field is written twice (rule 7). It is strict:
 * a bare LF or CR outside quotes, a quote inside an unenclosed field, or text after a closing quote throws.
 */
export function parseRfc4180(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = "";
  let i = 0;
  let quoted = false;
  let afterQuote = false;
  const endField = () => {
    record.push(field);
    field = "";
    afterQuote = false;
  };
  while (i < text.length) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
        afterQuote = true;
        i += 1;
        continue;
      }
      field += c;
      i += 1;
      continue;
    }
    if (c === ",") {
      endField();
      i += 1;
    } else if (c === "\r") {
      if (text[i + 1] !== "\n") throw new Error(`bare CR at ${i}`);
      endField();
      records.push(record);
      record = [];
      i += 2;
    } else if (c === "\n") {
      throw new Error(`bare LF at ${i}`);
    } else if (c === '"') {
      if (field !== "" || afterQuote) throw new Error(`quote inside an unenclosed field at ${i}`);
      quoted = true;
      i += 1;
    } else {
      if (afterQuote) throw new Error(`text after a closing quote at ${i}`);
      field += c;
      i += 1;
    }
  }
  if (quoted) throw new Error("unterminated quoted field");
  if (field !== "" || record.length > 0 || afterQuote) {
    endField();
    records.push(record);
  }
  return records;
}
