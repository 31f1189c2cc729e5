import { SMTPServer } from "smtp-server";

/**
 * A real SMTP server on a local port for the mail tests (the `smtp-server` package): it accepts any
 * sender, authentication optional, and keeps each message's envelope and raw bytes. `rejectRcpt`
 * answers RCPT TO with a permanent 550 for the addresses it matches.
 */
export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

export interface SmtpSink {
  port: number;
  url: string;
  messages: ReceivedMail[];
  close(): Promise<void>;
}

export async function startSmtpSink(opts: { port?: number; rejectRcpt?: RegExp } = {}): Promise<SmtpSink> {
  const messages: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    // No STARTTLS: the sink has no certificate a client would trust.
    disabledCommands: ["STARTTLS"],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (opts.rejectRcpt?.test(address.address)) {
        const err = Object.assign(new Error("Mailbox unavailable"), { responseCode: 550 });
        return callback(err);
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, "127.0.0.1", () => resolve());
  });
  const address = server.server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    messages,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A port nothing listens on (taken from the OS, then released). */
export async function freePort(): Promise<number> {
  const sink = await startSmtpSink();
  await sink.close();
  return sink.port;
}

/** One MIME part: its headers (lowercased names, unfolded) and its body as sent. */
export interface MimePart {
  headers: Record<string, string>;
  body: string;
}

export function parseHeaders(block: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of block.replace(/\r\n[ \t]+/g, " ").split("\r\n")) {
    const i = line.indexOf(":");
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return headers;
}

/** Splits a message (or a part) into its headers and body. */
export function splitMessage(raw: string): MimePart {
  const at = raw.indexOf("\r\n\r\n");
  return { headers: parseHeaders(raw.slice(0, at)), body: raw.slice(at + 4) };
}

/** The parts of a multipart body, one level down, by the boundary its Content-Type names. */
export function multipartParts(part: MimePart): MimePart[] {
  const boundary = /boundary="?([^";]+)"?/.exec(part.headers["content-type"] ?? "")?.[1];
  if (!boundary) return [];
  return part.body
    .split(`--${boundary}`)
    .slice(1, -1)
    .map((p) => splitMessage(p.replace(/^\r\n/, "")));
}

/** Every leaf part of a message, depth first. */
export function leafParts(part: MimePart): MimePart[] {
  const children = multipartParts(part);
  return children.length === 0 ? [part] : children.flatMap(leafParts);
}

/** A part's body decoded from its Content-Transfer-Encoding (base64, quoted-printable, 7bit). */
export function decodeBody(part: MimePart): Buffer {
  const enc = (part.headers["content-transfer-encoding"] ?? "7bit").toLowerCase();
  if (enc === "base64") return Buffer.from(part.body.replace(/\s+/g, ""), "base64");
  if (enc === "quoted-printable") {
    const soft = part.body.replace(/=\r\n/g, "");
    const bytes: number[] = [];
    for (let i = 0; i < soft.length; i++) {
      const hex = soft.slice(i + 1, i + 3);
      if (soft[i] === "=" && /^[0-9A-F]{2}$/i.test(hex)) {
        bytes.push(Number.parseInt(hex, 16));
        i += 2;
      } else bytes.push(soft.charCodeAt(i));
    }
    return Buffer.from(bytes);
  }
  return Buffer.from(part.body, "utf8");
}
