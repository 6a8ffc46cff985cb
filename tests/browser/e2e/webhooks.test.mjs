// Issue 36 in a real browser against the real server (sandbox payments on, private addresses
// allowed): an owner registers an address of their own system on /painel/webhooks and keeps the
// secret shown once; a customer pays a code ("Simular pagamento"); the address receives the
// payment, signed, and checks the signature as the /api-pix recipe says (Node's crypto); the
// address's log says "Entregue". The screen fits a phone and a laptop.

import assert from "node:assert/strict";
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";
import { after, before, describe } from "node:test";

import { screenshotsAtBothSizes, signUpThroughForm, startStack, stepsOf, uniqueEmail } from "./harness.mjs";
import { expectFitsEveryScreen } from "./layout.mjs";

/** Whether `header` (`t=…,v1=…`) signs `body` with `secret`, within five minutes of now. */
function signedWith(secret, header, body) {
  const pairs = header.split(",").map((part) => part.split("="));
  const t = Number(pairs.find(([name]) => name === "t")?.[1]);
  if (!Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > 300) return false;
  const expected = createHmac("sha256", secret).update(`${t}.`).update(body).digest();
  return pairs
    .filter(([name]) => name === "v1")
    .some(([, hex]) => {
      const given = Buffer.from(hex, "hex");
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
}

describe("webhooks", () => {
  let stack;
  let owner;
  let secret;
  let receiver;
  let receiverUrl;
  const received = [];
  const step = stepsOf(() => stack);

  before(async () => {
    process.env.BALCAO_SANDBOX_PAYMENTS = "true";
    process.env.BALCAO_WEBHOOKS_ALLOW_PRIVATE = "true";
    process.env.BALCAO_WEBHOOK_FIRST_RETRY_MS = "200";
    receiver = createServer((request, response) => {
      const chunks = [];
      request.on("data", (chunk) => chunks.push(chunk));
      request.on("end", () => {
        received.push({ headers: request.headers, body: Buffer.concat(chunks) });
        response.writeHead(204).end();
      });
    });
    await new Promise((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    receiverUrl = `http://127.0.0.1:${receiver.address().port}/avisos-pix`;
    stack = await startStack("webhooks");
    owner = await stack.newPage("titular");
  });

  after(async () => {
    await stack?.stop();
    await new Promise((resolve) => receiver?.close(resolve));
  });

  step("an owner registers an address from the menu and sees its secret once", async () => {
    await signUpThroughForm(owner, { name: "Bia Lopes", email: uniqueEmail("bia"), password: "Senha-da-Bia-9" });
    await owner.getByRole("link", { name: "Webhooks" }).first().click();
    await owner.getByRole("heading", { level: 1, name: "Webhooks" }).waitFor();
    await owner.getByText("Nenhum endereço cadastrado ainda.").waitFor();
    await owner.setViewportSize({ width: 390, height: 844 });
    const form = owner.getByRole("form", { name: "Cadastrar webhook" });
    await form.getByLabel("Endereço que recebe os avisos").fill(receiverUrl);
    await form.getByRole("button", { name: "Cadastrar webhook" }).click();
    const shown = form.locator(".secret code");
    await shown.waitFor();
    secret = (await shown.textContent()).trim();
    assert.match(secret, /^whsec_[A-Za-z0-9_-]{43}$/);
    const box = await shown.boundingBox();
    assert.ok(box.x >= 0 && box.x + box.width <= 390, `the secret fits the phone: ${JSON.stringify(box)}`);
    await screenshotsAtBothSizes(owner, "webhooks-cadastrado");
  });

  step("a customer pays a code and the address receives the payment, signed", async () => {
    await owner.setViewportSize({ width: 1366, height: 900 });
    await owner.goto("/painel/criar-qrcode");
    const form = owner.getByRole("form", { name: "Criar QR code" });
    await form.getByRole("textbox", { name: "Chave Pix", exact: true }).fill(`caixa.${Date.now()}@padaria-e2e.com.br`);
    await form.getByLabel("Nome de quem recebe", { exact: true }).fill("Padaria da Bia");
    await form.getByLabel("Cidade", { exact: true }).fill("Recife");
    await form.getByLabel("Valor (opcional)", { exact: true }).fill("12,50");
    await form.getByRole("button", { name: "Criar QR code" }).click();
    const made = owner.getByRole("article", { name: "QR code criado" });
    await made.waitFor();
    const payerPath = await made.getByRole("link", { name: "Abrir a página de pagamento" }).getAttribute("href");
    const payer = await stack.newPage("cliente");
    await payer.goto(payerPath);
    await payer.getByRole("button", { name: "Simular pagamento" }).click();
    await payer.getByRole("status").filter({ hasText: "Pagamento recebido" }).waitFor();
    const deadline = Date.now() + 15_000;
    while (received.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    assert.equal(received.length, 1, "one delivery");
    const [{ headers, body }] = received;
    assert.equal(headers["balcao-evento"], "pagamento.recebido");
    assert.ok(signedWith(secret, headers["balcao-assinatura"], body), "the signature checks");
    assert.ok(!signedWith("whsec_outro", headers["balcao-assinatura"], body));
    const event = JSON.parse(body.toString("utf8"));
    assert.equal(event.type, "pagamento.recebido");
    assert.equal(event.data.amountCentavos, 1250);
  });

  step("the address's log says the delivery arrived, and the screen fits", async () => {
    await owner.goto("/painel/webhooks");
    const card = owner.getByRole("listitem", { name: receiverUrl });
    await card.getByRole("button", { name: "Ver entregas" }).click();
    await card.getByText("Entregue", { exact: true }).waitFor();
    await card.getByText(/1 tentativa · resposta 204/).waitFor();
    await screenshotsAtBothSizes(owner, "webhooks-entregas");
    await expectFitsEveryScreen(owner, "/painel/webhooks", async (p) => {
      await p.getByRole("listitem", { name: receiverUrl }).waitFor();
    });
  });

  step("a new secret is shown once, and the old one is said to sign for a while yet", async () => {
    await owner.setViewportSize({ width: 390, height: 844 });
    await owner.goto("/painel/webhooks");
    const card = owner.getByRole("listitem", { name: receiverUrl });
    await card.getByRole("button", { name: "Trocar segredo" }).click();
    const news = card.getByRole("status").filter({ hasText: "Novo segredo" });
    await news.waitFor();
    const replaced = (await news.locator(".secret code").textContent()).trim();
    assert.match(replaced, /^whsec_[A-Za-z0-9_-]{43}$/);
    assert.notEqual(replaced, secret);
    await news.getByText(/assinatura com o segredo anterior/).waitFor();
    await screenshotsAtBothSizes(owner, "webhooks-segredo-novo");
  });
});
