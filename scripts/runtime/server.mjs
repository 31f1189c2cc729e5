/**
 * The production HTTP server (`npm start` runs it): Next's request handler behind a plain
 * node:http server, for one reason — the socket's peer address. `next start` keeps a
 * client-written X-Forwarded-For and only falls back to the socket when the header is absent,
 * so a client could pick its own rate-limit bucket. Here every request carries the peer
 * address in `x-duebill-socket-ip`, overwritten whatever the client sent (with a per-process
 * secret in `x-duebill-socket-ip-proof`, so proxy.ts can tell it from a client's); lib/http/rate-limit
 * uses it when no trusted proxy is configured (TRUSTED_PROXY_HOPS=0), and the X-Forwarded-For
 * entry the nearest trusted proxy appended otherwise.
 *
 * Usage: node scripts/runtime/server.mjs [--port 3000] [--hostname 0.0.0.0]
 */
import { randomBytes } from "node:crypto";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
};
const port = Number(arg("port", process.env.PORT ?? "3000"));
// Not $HOSTNAME: container runtimes set it to the machine name, which need not be bound locally.
const hostname = arg("hostname", "0.0.0.0");

// The boot check of `npm start` (lib/env.ts environmentProblems, with its one APP_SECRET rule), here
// too for whoever starts this file directly (the e2e and bench harnesses): a missing or malformed
// variable stops the server before Next loads, with one message naming each. This file is plain
// JavaScript run by bare node, so it loads the TypeScript module through tsx's scoped tsImport
// (no loader registered for Next's own modules).
const { tsImport } = await import("tsx/esm/api");
const { environmentProblems, formatEnvProblems } = await tsImport("../../lib/env.ts", import.meta.url);
const problems = environmentProblems({ ...process.env, NODE_ENV: "production" }, { production: true });
if (problems.length > 0) {
  console.error(`[duebill] refusing to start: ${formatEnvProblems(problems)}`);
  process.exit(1);
}

// proxy.ts keeps x-duebill-socket-ip only with this per-process secret beside it: under any other
// server a client-sent value is dropped. Set before Next loads, so its proxy reads this one.
const socketIpProof = randomBytes(32).toString("hex");
process.env.DUEBILL_SOCKET_IP_PROOF = socketIpProof;

// As `next start` does: production React and Next, whatever the caller's NODE_ENV.
process.env.NODE_ENV = "production";

/** Next's request handler, once app.prepare() is done (requests that arrive before wait for it). */
let handle;
let markReady;
const ready = new Promise((resolve) => {
  markReady = resolve;
});

const API = /^\/(v1|v2|api)(\/|$)/;
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
const REQUEST_ID = /^[A-Za-z0-9._-]{8,64}$/;
const STATUS_TEXT = { 400: "Bad Request", 405: "Method Not Allowed" };

/** The JSON error body of the API, for what must be answered before Next sees the request. */
function fail(res, requestId, status, code, message, extra = {}) {
  res.writeHead(status, {
    "content-type": "application/json",
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
  });
  res.end(JSON.stringify({ statusCode: status, error: STATUS_TEXT[status], message, code, ...extra, requestId }));
}

const server = http.createServer((req, res) => {
  req.headers["x-duebill-socket-ip"] = req.socket.remoteAddress ?? "";
  req.headers["x-duebill-socket-ip-proof"] = socketIpProof;
  const rawPath = (req.url ?? "/").split(/[?#]/, 1)[0];
  if (API.test(rawPath)) {
    // Every API answer carries x-request-id, the framework's own (308, 404, 405) included.
    const incoming = req.headers["x-request-id"];
    const requestId = typeof incoming === "string" && REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
    req.headers["x-request-id"] = requestId;
    res.setHeader("x-request-id", requestId);
    // What Next would answer with a plain-text 500: methods no route serves, malformed escapes.
    if (!METHODS.has(req.method ?? "")) {
      res.setHeader("allow", [...METHODS].join(", "));
      return fail(res, requestId, 405, "method_not_allowed", `Method ${String(req.method).slice(0, 16)} is not allowed`);
    }
    try {
      decodeURIComponent(rawPath);
    } catch {
      return fail(res, requestId, 400, "validation_failed", "Validation failed", {
        errors: [{ field: "path", message: "malformed percent-escape in the path" }],
      });
    }
  }
  ready
    .then(() => handle(req, res))
    .catch((err) => {
      console.error(JSON.stringify({ level: "error", msg: "request handler failed", err: String(err) }));
      if (!res.headersSent)
        res.writeHead(500, { "content-type": "application/json", "content-security-policy": "default-src 'none'; frame-ancestors 'none'" });
      res.end('{"statusCode":500,"error":"Internal Server Error","message":"Internal server error","code":"internal_error"}');
    });
});
server.keepAliveTimeout = 65_000;

// The port is bound before Next is prepared: a port already in use (or not ours to bind) ends
// the process with exit code 1 and one clear line, before the app (and its inline worker) starts.
// Without this, Node reports the EADDRINUSE as an uncaught error and Next keeps the process
// running without serving anything.
server.on("error", (err) => {
  const where = `${hostname}:${port}`;
  const why =
    err.code === "EADDRINUSE"
      ? `port ${port} is already in use (EADDRINUSE): stop the process listening on ${where} or set PORT to a free port`
      : err.code === "EACCES"
        ? `not allowed to listen on ${where} (EACCES): use a port above 1023 or run with the needed privilege`
        : `cannot listen on ${where}: ${err.message}`;
  console.error(`[duebill] refusing to start: ${why}`);
  process.exit(1);
});
await new Promise((resolve) => server.listen(port, hostname, resolve));
// SIGINT/SIGTERM: stop accepting, let open requests finish (at most 5 s), exit 0.
const stop = () => {
  server.close(() => process.exit(0));
  server.closeIdleConnections();
  setTimeout(() => process.exit(0), 5_000).unref();
};
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, stop);
// Started by `npm start` (scripts/runtime/run.ts, over an IPC channel): if that process dies without stopping
// this one (SIGKILL, OOM), stop too rather than keep the port and the inline worker as an orphan.
if (process.connected) {
  process.on("disconnect", stop);
  process.channel?.unref();
}

const { default: next } = await import("next");
const app = next({ dev: false, dir: root, hostname, port });
handle = app.getRequestHandler();
await app.prepare();
markReady();
console.log(`[duebill] ready on http://${hostname === "0.0.0.0" ? "localhost" : hostname}:${port}`);
