// The end-to-end harness: a real SMTP sink, the real `balcao all` on its own database and JetStream
// stream, and Debian's Chromium driven by playwright-core. Everything a run creates is removed by
// `stop()`; a failed step leaves screenshots, the server's log and the mail it sent in e2e-results/.
//
// Environment (all optional):
//   BALCAO_BIN     the server binary (default: ../../target/debug/balcao, the workspace's debug build)
//   BALCAO_WEBAPP_DIR  the built dashboard (default: ../../webapp/dist)
//   CHROMIUM_PATH  the browser (default: /usr/bin/chromium)
//   DATABASE_URL   which PostgreSQL server to create the run's database on (its database name is ignored)
//   NATS_URL       the NATS server (default: nats://127.0.0.1:4222)
//   E2E_HEADED=1   show the browser; E2E_TIMEOUT_MS per action and wait (default 15000)

import { spawn, execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readdir, rm, writeFile } from "node:fs/promises";
import net from "node:net";
import { dirname, join, resolve } from "node:path";
import { it } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

import { chromium } from "playwright-core";

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, "../../..");
export const resultsDir = resolve(here, "../e2e-results");

/** How long any single wait (an element, a page, an e-mail) may take before the step fails. */
export const TIMEOUT_MS = Number(process.env.E2E_TIMEOUT_MS ?? 15_000);

// ---------------------------------------------------------------------------------------------
// SMTP sink
// ---------------------------------------------------------------------------------------------

const SINK_NAME = "balcao-e2e-sink";

/**
 * A minimal SMTP server that accepts every message (no TLS, no AUTH: the server reaches it with a
 * plain `smtp://` URL) and keeps it in memory, parsed, for the tests to read.
 */
export async function startSmtpSink() {
  /** Every message received, in order. */
  const messages = [];
  /** Messages already handed to a test by `waitForMessage`, so each is read once. */
  const taken = new Set();
  const waiters = new Set();
  const sockets = new Set();

  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
    // latin1 keeps every byte as one char: 8-bit bodies are decoded as UTF-8 later, per part.
    socket.setEncoding("latin1");
    let buffer = "";
    let inData = false;
    let dataLines = [];
    let envelope = { from: null, to: [] };
    const reply = (line) => socket.write(`${line}\r\n`);
    const resetEnvelope = () => {
      envelope = { from: null, to: [] };
    };

    reply(`220 ${SINK_NAME} ESMTP ready`);

    const handleCommand = (line) => {
      const verb = line.split(" ", 1)[0].toUpperCase();
      const argument = line.slice(verb.length).trim();
      switch (verb) {
        case "EHLO":
          reply(`250-${SINK_NAME} greets ${argument || "you"}`);
          reply("250-8BITMIME");
          reply("250-SMTPUTF8");
          reply("250 SIZE 10485760");
          break;
        case "HELO":
          reply(`250 ${SINK_NAME}`);
          break;
        case "MAIL": {
          resetEnvelope();
          envelope.from = pathArgument(argument, "FROM");
          reply("250 2.1.0 Ok");
          break;
        }
        case "RCPT": {
          const to = pathArgument(argument, "TO");
          if (to === null) {
            reply("501 5.1.3 Bad recipient address syntax");
          } else {
            envelope.to.push(to);
            reply("250 2.1.5 Ok");
          }
          break;
        }
        case "DATA":
          if (envelope.to.length === 0) {
            reply("503 5.5.1 Need RCPT first");
          } else {
            inData = true;
            dataLines = [];
            reply("354 End data with <CR><LF>.<CR><LF>");
          }
          break;
        case "RSET":
          resetEnvelope();
          reply("250 2.0.0 Ok");
          break;
        case "NOOP":
          reply("250 2.0.0 Ok");
          break;
        case "QUIT":
          reply("221 2.0.0 Bye");
          socket.end();
          break;
        case "VRFY":
          reply("252 2.1.5 Cannot verify, will accept");
          break;
        case "STARTTLS":
          reply("454 4.7.0 TLS not available");
          break;
        default:
          reply("502 5.5.2 Command not recognised");
      }
    };

    const finishMessage = () => {
      const raw = dataLines.join("\r\n");
      const message = {
        ...parseMessage(raw),
        envelopeFrom: envelope.from,
        recipients: envelope.to.map((address) => address.toLowerCase()),
        receivedAt: new Date(),
        raw,
      };
      messages.push(message);
      resetEnvelope();
      reply("250 2.0.0 Ok: queued");
      for (const waiter of [...waiters]) waiter.check();
    };

    socket.on("data", (chunk) => {
      buffer += chunk;
      let end;
      while ((end = buffer.indexOf("\r\n")) !== -1) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (inData) {
          if (line === ".") {
            inData = false;
            finishMessage();
          } else {
            // Dot-unstuffing (RFC 5321 §4.5.2): the client doubled every leading dot.
            dataLines.push(line.startsWith(".") ? line.slice(1) : line);
          }
        } else {
          handleCommand(line);
        }
      }
    });
  });

  await new Promise((done, fail) => {
    server.once("error", fail);
    server.listen(0, "127.0.0.1", done);
  });
  const { port } = server.address();

  const describeReceived = () =>
    messages.length === 0
      ? "no message at all"
      : messages.map((m) => `to ${m.recipients.join(", ")}: "${m.subject}"`).join("; ");

  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    messages,

    /**
     * The first message to `to` (envelope recipient, case-insensitive) not yet returned by an
     * earlier call and accepted by `where`; waits up to `timeout` ms for it to arrive.
     */
    waitForMessage(to, { timeout = TIMEOUT_MS, where = () => true } = {}) {
      const address = to.toLowerCase();
      return new Promise((done, fail) => {
        const waiter = {
          check() {
            const found = messages.find((m) => !taken.has(m) && m.recipients.includes(address) && where(m));
            if (found === undefined) return;
            taken.add(found);
            clearTimeout(timer);
            waiters.delete(waiter);
            done(found);
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          fail(new Error(`no e-mail to ${to} within ${timeout} ms (the sink received ${describeReceived()})`));
        }, timeout);
        waiters.add(waiter);
        waiter.check();
      });
    },

    /** Every message, one line each, for the failure report. */
    summary() {
      return messages
        .map(
          (m) =>
            `${m.receivedAt.toISOString()} to ${m.recipients.join(", ")}: "${m.subject}"\n  ${m.links.join("\n  ")}`,
        )
        .join("\n");
    },

    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((done) => server.close(() => done()));
    },
  };
}

/** The address in `FROM:<a@b> BODY=8BITMIME` (null sender `<>` gives ""). */
function pathArgument(argument, keyword) {
  const match = new RegExp(`^${keyword}:\\s*<([^>]*)>`, "i").exec(argument);
  return match ? match[1] : null;
}

// ---------------------------------------------------------------------------------------------
// MIME: enough of RFC 2045–2047 to read what lettre writes
// ---------------------------------------------------------------------------------------------

/**
 * Parses a raw message (a latin1 string: one char per byte) into its headers, subject, plain-text
 * and HTML bodies (decoded from quoted-printable or base64) and the links they contain.
 */
export function parseMessage(raw) {
  const entity = parseEntity(raw);
  const texts = [];
  const htmls = [];
  const walk = (part) => {
    if (part.parts) {
      part.parts.forEach(walk);
    } else if (part.mediaType === "text/html") {
      htmls.push(part.content);
    } else if (part.mediaType === "text/plain") {
      texts.push(part.content);
    }
  };
  walk(entity);
  const text = texts.join("\n");
  const html = htmls.join("\n");
  return {
    headers: entity.headers,
    subject: decodeHeader(entity.headers.get("subject") ?? ""),
    to: decodeHeader(entity.headers.get("to") ?? ""),
    from: decodeHeader(entity.headers.get("from") ?? ""),
    text,
    html,
    links: extractLinks(text, html),
  };
}

function parseEntity(raw) {
  const split = /\r?\n\r?\n/.exec(raw);
  const headerText = split ? raw.slice(0, split.index) : raw;
  const body = split ? raw.slice(split.index + split[0].length) : "";
  const headers = new Map();
  for (const line of headerText.replace(/\r?\n(?=[ \t])/g, "").split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    // The first occurrence wins (Received-like repeats do not matter here).
    if (!headers.has(name)) headers.set(name, line.slice(colon + 1).trim());
  }
  const { mediaType, params } = parseContentType(headers.get("content-type") ?? "text/plain; charset=us-ascii");
  if (mediaType.startsWith("multipart/") && params.boundary) {
    return { headers, mediaType, parts: splitMultipart(body, params.boundary).map(parseEntity) };
  }
  const encoding = (headers.get("content-transfer-encoding") ?? "7bit").toLowerCase();
  const bytes = decodeTransfer(body, encoding);
  return { headers, mediaType, content: decodeCharset(bytes, params.charset) };
}

function parseContentType(value) {
  const [type, ...rest] = value.split(";");
  const params = {};
  for (const param of rest) {
    const eq = param.indexOf("=");
    if (eq === -1) continue;
    const key = param.slice(0, eq).trim().toLowerCase();
    let val = param.slice(eq + 1).trim();
    if (val.startsWith('"') && val.endsWith('"')) val = val.slice(1, -1);
    params[key] = val;
  }
  return { mediaType: type.trim().toLowerCase(), params };
}

function splitMultipart(body, boundary) {
  const delimiter = `--${boundary}`;
  const parts = [];
  const lines = body.split(/\r?\n/);
  let current = null;
  for (const line of lines) {
    if (line === `${delimiter}--`) break;
    if (line === delimiter) {
      if (current !== null) parts.push(current.join("\r\n"));
      current = [];
    } else if (current !== null) {
      current.push(line);
    }
  }
  if (current !== null && current.length > 0) parts.push(current.join("\r\n"));
  return parts;
}

function decodeTransfer(body, encoding) {
  if (encoding === "base64") return Buffer.from(body.replace(/[^A-Za-z0-9+/=]/g, ""), "base64");
  if (encoding === "quoted-printable") return decodeQuotedPrintable(body);
  return Buffer.from(body, "latin1");
}

function decodeQuotedPrintable(text) {
  // Soft line breaks ("=" at the end of a line) join lines; trailing blanks before them go too.
  const joined = text.replace(/[ \t]*=\r?\n/g, "");
  const bytes = [];
  for (let i = 0; i < joined.length; i += 1) {
    const char = joined[i];
    if (char === "=" && /^[0-9A-Fa-f]{2}$/.test(joined.slice(i + 1, i + 3))) {
      bytes.push(parseInt(joined.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(joined.charCodeAt(i) & 0xff);
    }
  }
  return Buffer.from(bytes);
}

function decodeCharset(bytes, charset = "utf-8") {
  try {
    return new TextDecoder(charset.toLowerCase() === "us-ascii" ? "utf-8" : charset).decode(bytes);
  } catch {
    return bytes.toString("utf8");
  }
}

/** RFC 2047 encoded words (`=?utf-8?b?…?=`, `=?utf-8?q?…?=`); blanks between two of them vanish. */
export function decodeHeader(value) {
  // Raw 8-bit bytes (SMTPUTF8) arrive as latin1 chars: read them as UTF-8 first. Encoded words are
  // plain ASCII, so this leaves them alone.
  const raw = /[\u0080-\u00ff]/.test(value) ? Buffer.from(value, "latin1").toString("utf8") : value;
  // A run of adjacent words is decoded as one byte string: an encoder may split a character's
  // bytes across two words.
  const word = /=\?([^?]+)\?([bBqQ])\?([^?]*)\?=/;
  const run = new RegExp(`${word.source}(?:\\s+${word.source})*`, "g");
  return raw.replace(run, (words) => {
    let charset = "utf-8";
    const bytes = [];
    for (const [, set, kind, text] of words.matchAll(new RegExp(word.source, "g"))) {
      charset = set;
      bytes.push(
        kind.toLowerCase() === "b" ? Buffer.from(text, "base64") : decodeQuotedPrintable(text.replace(/_/g, " ")),
      );
    }
    return decodeCharset(Buffer.concat(bytes), charset);
  });
}

const ENTITIES = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function decodeEntities(text) {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name) => {
    if (name[0] === "#") {
      const code = name[1].toLowerCase() === "x" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return String.fromCodePoint(code);
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** Every http(s) link in the plain text and in the HTML's `href`s, without duplicates. */
export function extractLinks(text, html) {
  const found = [];
  for (const match of html.matchAll(/href\s*=\s*(["'])(.*?)\1/gis)) found.push(decodeEntities(match[2]));
  for (const match of text.matchAll(/https?:\/\/[^\s<>"')\]]+/g)) found.push(match[0].replace(/[.,;:!?]+$/, ""));
  return [...new Set(found.filter((link) => /^https?:\/\//i.test(link)))];
}

/**
 * The link in `message` to `pathname` (e.g. "/verificar-email"), as a URL; fails naming the links
 * the message does have.
 */
export function linkTo(message, pathname) {
  for (const link of message.links) {
    const url = new URL(link);
    if (url.pathname === pathname) return url;
  }
  throw new Error(
    `the e-mail "${message.subject}" to ${message.recipients.join(", ")} has no link to ${pathname}; ` +
      `its links: ${message.links.join(" ") || "none"}\n--- text ---\n${message.text}`,
  );
}

// ---------------------------------------------------------------------------------------------
// The server
// ---------------------------------------------------------------------------------------------

const run = promisify(execFile);

/** A TCP port nobody listens on right now. */
export async function freePort() {
  const probe = net.createServer();
  await new Promise((done, fail) => {
    probe.once("error", fail);
    probe.listen(0, "127.0.0.1", done);
  });
  const { port } = probe.address();
  await new Promise((done) => probe.close(() => done()));
  return port;
}

function postgresUrl(database) {
  const url = new URL(process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres");
  url.pathname = `/${database}`;
  return url.toString();
}

/**
 * Starts `balcao all` with a fresh database (the `all` role creates and migrates it), its own
 * JetStream stream and subjects, the sink as its mail server, and the built dashboard; resolves
 * once `/readyz` answers 200.
 */
export async function startBalcao({ mailUrl, env: extraEnv = {} }) {
  const binary = resolve(process.env.BALCAO_BIN ?? join(repoRoot, "target/debug/balcao"));
  const webappDir = resolve(process.env.BALCAO_WEBAPP_DIR ?? join(repoRoot, "webapp/dist"));
  if (!existsSync(binary)) {
    throw new Error(`no server binary at ${binary}: build it (cargo build -p gateway --bin balcao) or set BALCAO_BIN`);
  }
  if (!existsSync(join(webappDir, "index.html"))) {
    throw new Error(`no built dashboard at ${webappDir}: run \`npm run build\` in webapp/ or set BALCAO_WEBAPP_DIR`);
  }
  const id = randomBytes(8).toString("hex");
  const database = `balcao_e2e_${id}`;
  const stream = `E2E_${id}`;
  const port = await freePort();
  const baseUrl = `http://localhost:${port}`;
  const natsUrl = process.env.NATS_URL ?? "nats://127.0.0.1:4222";
  const env = {
    ...process.env,
    DATABASE_URL: postgresUrl(database),
    NATS_URL: natsUrl,
    BALCAO_LISTEN: `127.0.0.1:${port}`,
    // Any free port: another run (or a `make run`) may hold the default 9090.
    BALCAO_OPS_LISTEN: "127.0.0.1:0",
    BALCAO_SITE_URL: baseUrl,
    BALCAO_MAIL_URL: mailUrl,
    // Uploaded logos: a folder of this run's own, beside the results (ignored by git).
    BALCAO_STORAGE_URL: `file://${join(resultsDir, `objects-${id}`)}`,
    BALCAO_WEBAPP_DIR: webappDir,
    BALCAO_NATS_STREAM: stream,
    BALCAO_NATS_SUBJECT_PREFIX: `e2e.${id}`,
    BALCAO_LOG_FORMAT: "pretty",
    NO_COLOR: "1",
    RUST_LOG: process.env.RUST_LOG ?? "info",
    ...extraEnv,
  };
  const log = [];
  const child = spawn(binary, ["all"], { env, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout.setEncoding("utf8").on("data", (text) => log.push(text));
  child.stderr.setEncoding("utf8").on("data", (text) => log.push(text));
  let exited = null;
  const exit = new Promise((done) =>
    child.once("exit", (code, signal) => {
      exited = { code, signal };
      done(exited);
    }),
  );
  // Should this process die without calling stop(), the server must not outlive it.
  const orphanGuard = () => child.kill("SIGKILL");
  process.once("exit", orphanGuard);

  const app = {
    baseUrl,
    port,
    database,
    stream,
    natsUrl,
    log: () => log.join(""),
    async stop() {
      process.removeListener("exit", orphanGuard);
      if (exited === null) {
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
        await exit;
        clearTimeout(timer);
      }
      const problems = [];
      try {
        await run("psql", [postgresUrl("postgres"), "-qc", `drop database if exists "${database}" with (force)`]);
      } catch (error) {
        problems.push(`could not drop database ${database}: ${error.stderr || error.message}`);
      }
      try {
        await deleteStream(natsUrl, stream);
      } catch (error) {
        problems.push(`could not delete stream ${stream}: ${error.message}`);
      }
      if (problems.length > 0) throw new Error(problems.join("\n"));
    },
  };

  const deadline = Date.now() + 60_000;
  let last = "no answer";
  while (Date.now() < deadline) {
    if (exited !== null) {
      await app.stop().catch(() => {});
      throw new Error(`balcao exited (${JSON.stringify(exited)}) before it was ready:\n${app.log()}`);
    }
    try {
      const response = await fetch(`${baseUrl}/readyz`);
      if (response.status === 200) return app;
      last = `${response.status} ${await response.text()}`;
    } catch (error) {
      last = error.cause?.code ?? error.message;
    }
    await new Promise((done) => setTimeout(done, 100));
  }
  await app.stop().catch(() => {});
  throw new Error(`balcao was not ready within 60 s (last /readyz: ${last}):\n${app.log()}`);
}

/**
 * Deletes a JetStream stream over the NATS protocol itself (a request to
 * `$JS.API.STREAM.DELETE.<name>`), as the Rust tests' `TestApp::stop` does with async-nats; a
 * stream that is already gone counts as deleted.
 */
export function deleteStream(natsUrl, name, { timeout = 5_000 } = {}) {
  const { hostname, port } = new URL(natsUrl);
  const inbox = `_INBOX.e2e.${randomBytes(6).toString("hex")}`;
  return new Promise((done, fail) => {
    const socket = net.connect(Number(port || 4222), hostname || "127.0.0.1");
    socket.setEncoding("latin1");
    let buffer = "";
    let greeted = false;
    const finish = (error, value) => {
      clearTimeout(timer);
      socket.destroy();
      if (error) fail(error);
      else done(value);
    };
    const timer = setTimeout(() => finish(new Error(`NATS did not answer within ${timeout} ms`)), timeout);
    socket.on("error", (error) => finish(error));
    socket.on("data", (chunk) => {
      buffer += chunk;
      for (;;) {
        const end = buffer.indexOf("\r\n");
        if (end === -1) return;
        const line = buffer.slice(0, end);
        if (line.startsWith("MSG ") || line.startsWith("HMSG ")) {
          // MSG <subject> <sid> [reply] <bytes> / HMSG <subject> <sid> [reply] <header bytes> <total bytes>
          const fields = line.split(" ");
          const total = Number(fields.at(-1));
          const headerBytes = line.startsWith("HMSG ") ? Number(fields.at(-2)) : 0;
          if (buffer.length < end + 2 + total + 2) return;
          const payload = buffer.slice(end + 2, end + 2 + total);
          buffer = buffer.slice(end + 2 + total + 2);
          const headers = payload.slice(0, headerBytes);
          if (/^NATS\/1\.0 503/.test(headers)) return finish(new Error("JetStream is not enabled on this NATS server"));
          const answer = JSON.parse(payload.slice(headerBytes) || "{}");
          // 10059: stream not found. Already gone is as good as deleted.
          if (answer.success || answer.error?.err_code === 10059) return finish(null, answer);
          return finish(new Error(`JetStream refused: ${JSON.stringify(answer.error ?? answer)}`));
        }
        buffer = buffer.slice(end + 2);
        if (line.startsWith("INFO ") && !greeted) {
          greeted = true;
          const connect = {
            verbose: false,
            pedantic: false,
            lang: "node-e2e",
            version: "0",
            protocol: 1,
            headers: true,
            no_responders: true,
          };
          socket.write(
            `CONNECT ${JSON.stringify(connect)}\r\nSUB ${inbox} 1\r\nPUB $JS.API.STREAM.DELETE.${name} ${inbox} 0\r\n\r\n`,
          );
        } else if (line === "PING") {
          socket.write("PONG\r\n");
        } else if (line.startsWith("-ERR")) {
          return finish(new Error(`NATS: ${line}`));
        }
      }
    });
  });
}

// ---------------------------------------------------------------------------------------------
// The whole stack, the browser, and steps that report their failures
// ---------------------------------------------------------------------------------------------

/**
 * Sink + server + Chromium for one test file. `newPage()` opens a page in a fresh context (its own
 * cookies: one per person); `stop()` removes everything.
 */
/**
 * The API Pix bank simulator (`tests/src/bin/bank-simulator.rs`) as a process: its origin, the CA
 * Balcão must trust, the key it holds and a client (id, secret, `.p12`) it issued. Stop it with
 * `stop()`.
 */
export async function startBankSimulator() {
  const binary = resolve(process.env.BANK_SIMULATOR_BIN ?? join(repoRoot, "target/debug/bank-simulator"));
  if (!existsSync(binary)) {
    throw new Error(`no bank simulator at ${binary}: build it (cargo build -p tests --bin bank-simulator)`);
  }
  const child = spawn(binary, [], { stdio: ["pipe", "pipe", "inherit"] });
  const orphanGuard = () => child.kill("SIGKILL");
  process.once("exit", orphanGuard);
  // Every line the simulator writes, in order; each waiter takes the next one.
  const lines = [];
  const waiters = [];
  let text = "";
  child.stdout.setEncoding("utf8").on("data", (chunk) => {
    text += chunk;
    for (let end = text.indexOf("\n"); end >= 0; end = text.indexOf("\n")) {
      const next = text.slice(0, end);
      text = text.slice(end + 1);
      const waiter = waiters.shift();
      if (waiter) waiter.done(next);
      else lines.push(next);
    }
  });
  const nextLine = () =>
    new Promise((done, failed) => {
      if (lines.length > 0) return done(lines.shift());
      waiters.push({ done, failed });
    });
  child.once("exit", (code) => {
    for (const waiter of waiters.splice(0)) waiter.failed(new Error(`the bank simulator exited (${code})`));
  });
  const line = await nextLine();
  return {
    ...JSON.parse(line),
    /** A Pix of `centavos` with `txid` on the bank's key (its webhook is called); answers its end-to-end id. */
    async receivePix(centavos, txid) {
      child.stdin.write(`pix ${centavos} ${txid}\n`);
      const answer = JSON.parse(await nextLine());
      if (answer.error) throw new Error(answer.error);
      return answer.e2eid;
    },
    /** Pays the charge (`cob`) `txid` in full, as a payer's bank app would (its webhook is called); answers the e2e id. */
    async payCharge(txid) {
      child.stdin.write(`cob ${txid}\n`);
      const answer = JSON.parse(await nextLine());
      if (answer.error) throw new Error(answer.error);
      return answer.e2eid;
    },
    async stop() {
      process.removeListener("exit", orphanGuard);
      child.kill("SIGKILL");
    },
  };
}

export async function startStack(label, { env = {} } = {}) {
  // This file's results from an earlier run would only mislead.
  for (const name of await readdir(resultsDir).catch(() => [])) {
    if (name.startsWith(`${label}--`)) await rm(join(resultsDir, name), { force: true });
  }
  const sink = await startSmtpSink();
  let app;
  try {
    app = await startBalcao({ mailUrl: sink.url, env });
  } catch (error) {
    await sink.close();
    throw error;
  }
  let browser;
  try {
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox"],
      headless: process.env.E2E_HEADED !== "1",
    });
  } catch (error) {
    await app.stop().catch(() => {});
    await sink.close();
    throw error;
  }
  const pages = [];
  return {
    app,
    sink,
    browser,
    pages,
    baseUrl: app.baseUrl,
    /** A page in a new browser context: one person, with their own cookies. */
    async newPage(name = `pessoa-${pages.length + 1}`) {
      const context = await browser.newContext({
        baseURL: app.baseUrl,
        locale: "pt-BR",
        timezoneId: "America/Sao_Paulo",
        viewport: { width: 1280, height: 900 },
      });
      context.setDefaultTimeout(TIMEOUT_MS);
      context.setDefaultNavigationTimeout(TIMEOUT_MS);
      const page = await context.newPage();
      const consoleLines = [];
      page.on("console", (message) => consoleLines.push(`[${message.type()}] ${message.text()}`));
      page.on("pageerror", (error) => consoleLines.push(`[pageerror] ${error.message}`));
      // Refused API calls, for the failure report: they usually say which side is wrong.
      const failedCalls = [];
      page.on("response", (response) => {
        const url = new URL(response.url());
        if (url.pathname.startsWith("/api/") && response.status() >= 400) {
          failedCalls.push(`${response.request().method()} ${url.pathname} → ${response.status()}`);
        }
      });
      pages.push({ name, page, consoleLines, failedCalls });
      return page;
    },
    /** Screenshots of every open page, the server log and the mail, named after the failed step. */
    async recordFailure(step) {
      await mkdir(resultsDir, { recursive: true });
      const base = `${label}--${slug(step)}`;
      const written = [];
      for (const { name, page, consoleLines, failedCalls } of pages) {
        if (failedCalls.length > 0) written.push(`${name}'s refused API calls: ${failedCalls.join(", ")}`);
        if (page.isClosed()) continue;
        const file = join(resultsDir, `${base}--${name}.png`);
        try {
          await page.screenshot({ path: file, fullPage: true, timeout: 5_000 });
          written.push(`screenshot of ${name} at ${page.url()}: ${file}`);
        } catch {
          written.push(`(no screenshot of ${name} at ${page.url()})`);
        }
        await writeFile(
          join(resultsDir, `${base}--${name}.console.txt`),
          [...consoleLines, "--- refused API calls ---", ...failedCalls].join("\n"),
        );
      }
      await writeFile(join(resultsDir, `${base}--server.log`), app.log());
      await writeFile(join(resultsDir, `${base}--mail.txt`), sink.summary());
      return written;
    },
    async stop() {
      const problems = [];
      await browser.close().catch((error) => problems.push(error.message));
      await app.stop().catch((error) => problems.push(error.message));
      await sink.close().catch((error) => problems.push(error.message));
      if (problems.length > 0) throw new Error(problems.join("\n"));
    },
  };
}

function slug(text) {
  return text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, 80);
}

/**
 * `step(name, fn)` declares one test of a flow. Steps run in order and share state; once one fails
 * the rest are skipped (they would only fail for the same reason), as are the steps of any stepper
 * made with this one in `dependsOn`. A failure is recorded: screenshots, server log and mail in
 * e2e-results/, their paths (and the API calls the pages saw refused) added to the error.
 */
export function stepsOf(getStack, ...dependsOn) {
  let failed = null;
  const step = function step(name, fn) {
    it(name, async (t) => {
      const blocker = [step, ...dependsOn].map((s) => s.failedStep()).find((f) => f !== null);
      if (blocker !== undefined) {
        t.skip(`skipped: the step "${blocker}" failed`);
        return;
      }
      try {
        await fn(t);
      } catch (error) {
        failed = name;
        const stack = getStack();
        if (stack) {
          const written = await stack
            .recordFailure(name)
            .catch((e) => [`(could not record the failure: ${e.message})`]);
          error.message += `\n    ${written.join("\n    ")}\n    server log and mail: ${resultsDir}`;
        }
        throw error;
      }
    });
  };
  /** The name of this stepper's failed step, if one failed. */
  step.failedStep = () => failed;
  return step;
}

/** A unique e-mail address for one person of one run. */
export function uniqueEmail(who) {
  return `${who}.${randomBytes(4).toString("hex")}@exemplo.com.br`;
}

/** Waits until `page` is at `pathname` (whatever the query string). */
export async function waitForPath(page, pathname) {
  await page.waitForURL((url) => url.pathname === pathname, { timeout: TIMEOUT_MS });
}

/**
 * Signs a new person up through `/criar-conta`, as they would type it, and waits for the
 * welcome page the form leads to.
 */
export async function signUpThroughForm(page, { name, email, password }) {
  await page.goto("/criar-conta");
  await page.getByLabel("Seu nome", { exact: true }).fill(name);
  await page.getByLabel("E-mail", { exact: true }).fill(email);
  await page.getByLabel("Senha", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Criar conta", exact: true }).click();
  await waitForPath(page, "/painel/boas-vindas");
}

/** The two screens every dashboard check is looked at on: a common phone and a laptop. */
export const PHONE_AND_LAPTOP = [
  { width: 390, height: 844 },
  { width: 1366, height: 900 },
];

/**
 * Full-page screenshots of `page` at both [`PHONE_AND_LAPTOP`] sizes into `E2E_SHOTS_DIR`
 * (`name--390x844.png`, `name--1366x900.png`); nothing without that variable. The page comes
 * back to the size it had.
 */
export async function screenshotsAtBothSizes(page, name) {
  const dir = process.env.E2E_SHOTS_DIR;
  if (!dir) return;
  await mkdir(dir, { recursive: true });
  const size = page.viewportSize();
  for (const screen of PHONE_AND_LAPTOP) {
    await page.setViewportSize(screen);
    // What redraws on a resize (the transactions chart) settles first.
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(dir, `${name}--${screen.width}x${screen.height}.png`), fullPage: true });
  }
  if (size) await page.setViewportSize(size);
}

/**
 * Registers an account's first Pix key through `/painel/chaves` ("Cadastrar chave Pix"), with the
 * holder's name as the bank shows it, and waits until it is the account's default key.
 */
export async function registerFirstKey(page, { key, holder }) {
  await page.goto("/painel/chaves");
  const form = page.getByRole("form", { name: "Cadastrar chave Pix" });
  await form.getByLabel("Chave Pix", { exact: true }).fill(key);
  await form.getByLabel("Nome do titular, como o banco mostra", { exact: true }).fill(holder);
  await form.getByRole("button", { name: "Cadastrar chave" }).click();
  await form.getByRole("status").filter({ hasText: "é a chave padrão desta conta" }).waitFor();
}
