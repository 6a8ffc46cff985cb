// The harness's own pieces, checked over real sockets: if the sink misread a message, the browser
// flows would fail far from the cause.

import assert from "node:assert/strict";
import net from "node:net";
import { describe, it } from "node:test";

import { deleteStream, startSmtpSink } from "./harness.mjs";

/** Speaks SMTP to `port` as a client would and returns every reply line the server sent. */
async function sendMail(port, { from, to, data }) {
  const socket = net.connect(port, "127.0.0.1");
  socket.setEncoding("latin1");
  const replies = [];
  let buffer = "";
  let waiting = null;
  socket.on("data", (chunk) => {
    buffer += chunk;
    let end;
    while ((end = buffer.indexOf("\r\n")) !== -1) {
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      replies.push(line);
      // "250-…" continues a multi-line reply; "250 …" ends it.
      if (/^\d{3} /.test(line) && waiting) {
        const done = waiting;
        waiting = null;
        done(line);
      }
    }
  });
  const reply = () => new Promise((done) => (waiting = done));
  const command = async (line) => {
    const answer = reply();
    socket.write(`${line}\r\n`);
    return answer;
  };
  assert.match(await reply(), /^220 /);
  assert.match(await command("EHLO client.test"), /^250 /);
  assert.match(await command(`MAIL FROM:<${from}> BODY=8BITMIME`), /^250 /);
  for (const recipient of to) assert.match(await command(`RCPT TO:<${recipient}>`), /^250 /);
  assert.match(await command("DATA"), /^354 /);
  const stuffed = data
    .split("\r\n")
    .map((line) => (line.startsWith(".") ? `.${line}` : line))
    .join("\r\n");
  assert.match(await command(`${stuffed}\r\n.`), /^250 /);
  assert.match(await command("RSET"), /^250 /);
  assert.match(await command("NOOP"), /^250 /);
  assert.match(await command("QUIT"), /^221 /);
  socket.end();
  return replies;
}

describe("the SMTP sink", () => {
  it("reads a multipart message with quoted-printable text and base64 HTML, as lettre writes it", async () => {
    const sink = await startSmtpSink();
    try {
      const html = '<p>Olá! <a href="http://localhost:1/redefinir-senha?oobCode=abc&amp;x=1">Criar senha nova</a></p>';
      const data = [
        "From: =?utf-8?b?QmFsY8Ojbw==?= <nao-responda@balcao.test>",
        "To: ana@exemplo.com.br",
        "Subject: =?utf-8?b?UmVkZWZpbmnDp8OjbyBk?=",
        " =?utf-8?b?ZSBzZW5oYQ==?=",
        "MIME-Version: 1.0",
        'Content-Type: multipart/alternative; boundary="XYZ"',
        "",
        "--XYZ",
        "Content-Type: text/plain; charset=utf-8",
        "Content-Transfer-Encoding: quoted-printable",
        "",
        "Ol=C3=A1! Abra o link para criar uma senha nova: http://localhost:1/redefinir=",
        "-senha?oobCode=3Dabc",
        ".linha que come=C3=A7a com ponto",
        "--XYZ",
        "Content-Type: text/html; charset=utf-8",
        "Content-Transfer-Encoding: base64",
        "",
        ...Buffer.from(html)
          .toString("base64")
          .match(/.{1,76}/g),
        "--XYZ--",
        "",
      ].join("\r\n");
      const sent = sendMail(sink.port, { from: "nao-responda@balcao.test", to: ["Ana@Exemplo.com.br"], data });
      const message = await sink.waitForMessage("ana@exemplo.com.br", { timeout: 5_000 });
      await sent;
      assert.equal(message.subject, "Redefinição de senha");
      assert.equal(message.from, "Balcão <nao-responda@balcao.test>");
      assert.deepEqual(message.recipients, ["ana@exemplo.com.br"]);
      assert.match(message.text, /^Olá! Abra o link/);
      assert.match(message.text, /\n\.linha que começa com ponto/);
      assert.equal(message.html, html);
      assert.deepEqual(message.links, [
        "http://localhost:1/redefinir-senha?oobCode=abc&x=1",
        "http://localhost:1/redefinir-senha?oobCode=abc",
      ]);
    } finally {
      await sink.close();
    }
  });

  it("hands each message out once and times out naming what it did receive", async () => {
    const sink = await startSmtpSink();
    try {
      const data =
        "Subject: Primeiro\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nhttp://localhost:1/verificar-email?oobCode=1\r\n";
      await sendMail(sink.port, { from: "a@b.test", to: ["bia@exemplo.com.br"], data });
      const first = await sink.waitForMessage("bia@exemplo.com.br", { timeout: 1_000 });
      assert.equal(first.subject, "Primeiro");
      await assert.rejects(
        sink.waitForMessage("bia@exemplo.com.br", { timeout: 200 }),
        /no e-mail to bia@exemplo\.com\.br within 200 ms \(the sink received to bia@exemplo\.com\.br: "Primeiro"\)/,
      );
    } finally {
      await sink.close();
    }
  });
});

describe("deleting a JetStream stream", () => {
  it("counts a stream that does not exist as deleted", async () => {
    const answer = await deleteStream(process.env.NATS_URL ?? "nats://127.0.0.1:4222", "E2E_NEVER_CREATED_0000");
    assert.equal(answer.error?.err_code, 10059);
  });
});
