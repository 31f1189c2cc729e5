/**
 * Parses the curl commands /docs shows (lib/openapi/snippets.ts writes them): `curl [-X METHOD]
 * 'url'`, `-H 'name: value'` and `-d 'body'`, single-quoted the POSIX way (`'\''` for a quote),
 * continued with ` \` line ends. Anything else is an error, so a snippet the parser does not
 * understand cannot pass as run.
 */
export interface ParsedCurl {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

function words(command: string): string[] {
  const out: string[] = [];
  let i = 0;
  const s = command.replace(/\\\n/g, " ");
  while (i < s.length) {
    if (/\s/.test(s[i]!)) {
      i++;
      continue;
    }
    let word = "";
    while (i < s.length && !/\s/.test(s[i]!)) {
      if (s[i] === "'") {
        const end = s.indexOf("'", i + 1);
        if (end < 0) throw new Error(`Unclosed quote in: ${command}`);
        word += s.slice(i + 1, end);
        i = end + 1;
      } else if (s[i] === "\\") {
        word += s[i + 1] ?? "";
        i += 2;
      } else if (s[i] === '"') {
        throw new Error(`Double quotes are not used by the snippets: ${command}`);
      } else {
        word += s[i];
        i++;
      }
    }
    out.push(word);
  }
  return out;
}

export function parseCurl(command: string): ParsedCurl {
  const w = words(command);
  if (w[0] !== "curl") throw new Error(`Not a curl command: ${command}`);
  let method: string | undefined;
  let url: string | undefined;
  let body: string | undefined;
  const headers: Record<string, string> = {};
  for (let i = 1; i < w.length; i++) {
    const word = w[i]!;
    if (word === "-X") method = w[++i];
    else if (word === "-H") {
      const h = w[++i]!;
      const at = h.indexOf(":");
      if (at < 1) throw new Error(`Bad header ${h}`);
      headers[h.slice(0, at).trim().toLowerCase()] = h.slice(at + 1).trim();
    } else if (word === "-d") body = w[++i];
    else if (url === undefined && !word.startsWith("-")) url = word;
    else throw new Error(`Unknown curl argument ${word} in: ${command}`);
  }
  if (!url) throw new Error(`No URL in: ${command}`);
  return { method: method ?? (body === undefined ? "GET" : "POST"), url, headers, body };
}
