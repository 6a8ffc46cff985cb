// Issue 32, item 1 ("modo balcão"), in a real browser against the real server (sandbox payments
// on): the owner opens "Modo balcão" for a code from the QR-code list; a customer, in another
// browser, pays on the payer page ("Simular pagamento"); the owner's screen shows the amount within
// seconds, highlighted, without a reload. At 390×844 and 1366×900; the address is a screen of the
// dashboard (200, not the 404 page) and fits every screen size. E2E_SHOTS_DIR=/tmp/x keeps
// screenshots.

import assert from "node:assert/strict";
import { after, before, describe } from "node:test";

import {
  PHONE_AND_LAPTOP,
  screenshotsAtBothSizes,
  signUpThroughForm,
  startStack,
  stepsOf,
  uniqueEmail,
  waitForPath,
} from "./harness.mjs";
import { expectFitsEveryScreen } from "./layout.mjs";

const SCREENS = PHONE_AND_LAPTOP;
const KEY = `caixa.${Date.now()}@padaria-e2e.com.br`;
/** How soon a payment must be on the counter's screen: "within seconds". */
const ARRIVES_WITHIN_MS = 5_000;

const shots = screenshotsAtBothSizes;

describe("modo balcão: o caixa vê cada pagamento chegar", () => {
  let stack;
  let owner;
  let payerPath;
  let counterPath;
  const step = stepsOf(() => stack);
  const each = stepsOf(() => stack, step);

  before(async () => {
    process.env.BALCAO_SANDBOX_PAYMENTS = "true";
    stack = await startStack("modo-balcao");
    owner = await stack.newPage("titular");
  });

  after(async () => {
    await stack?.stop();
  });

  step("the owner makes a counter code and opens Modo balcão from the QR-code list", async () => {
    await signUpThroughForm(owner, { name: "Ana Souza", email: uniqueEmail("ana"), password: "Senha-da-Ana-7" });
    // A key typed on the form (an account with no registered key is offered a text field): the
    // sandbox pays any code of an account.
    await owner.goto("/painel/criar-qrcode");
    const form = owner.getByRole("form", { name: "Criar QR code" });
    await form.getByRole("textbox", { name: "Chave Pix", exact: true }).fill(KEY);
    await form.getByLabel("Nome de quem recebe", { exact: true }).fill("Padaria da Ana");
    await form.getByLabel("Cidade", { exact: true }).fill("Recife");
    await form.getByLabel("Valor (opcional)", { exact: true }).fill("12,50");
    await form.getByLabel("Descrição (opcional)", { exact: true }).fill("Caixa 1");
    await form.getByRole("button", { name: "Criar QR code" }).click();
    const made = owner.getByRole("article", { name: "QR code criado" });
    await made.waitFor();
    payerPath = await made.getByRole("link", { name: "Abrir a página de pagamento" }).getAttribute("href");
    assert.match(payerPath, /^\/pagamento\/[0-9a-f-]{36}$/);
    const id = payerPath.split("/").pop();
    counterPath = `/painel/qrcodes/${id}/balcao`;

    await owner.goto("/painel/qrcodes");
    await owner.getByRole("link", { name: /^Modo balcão de PADARIA DA ANA/ }).click();
    await waitForPath(owner, counterPath);
    await owner.getByRole("heading", { level: 1, name: "Modo balcão" }).waitFor();
    await owner.getByText("Aguardando pagamentos neste QR code…").waitFor();
    const main = await owner.locator("main").innerText();
    for (const shown of ["Caixa 1", "R$ 12,50", KEY]) assert.ok(main.includes(shown), shown);
    await shots(owner, "modo-balcao-vazio");
  });

  step("the address is a screen of the dashboard: 200, not the 404 page; a neighbour is a 404", async () => {
    const screen = await owner.request.get(counterPath, { maxRedirects: 0 });
    assert.equal(screen.status(), 200);
    const neighbour = await owner.request.get(counterPath.replace(/\/balcao$/, "/caixa"), { maxRedirects: 0 });
    assert.equal(neighbour.status(), 404);
  });

  for (const screen of SCREENS) {
    each(`${screen.width}×${screen.height}: a customer pays and the counter shows the amount within seconds, no reload`, async () => {
      await owner.setViewportSize(screen);
      await owner.goto(counterPath);
      await owner.getByText("Ao vivo: cada pagamento aparece aqui na hora.").waitFor();
      // Nothing highlighted yet: what was there when the screen opened is not news.
      await owner.locator("ol.counter-payments, .counter-empty").first().waitFor();
      assert.equal(await owner.getByText("Acabou de chegar").count(), 0);
      await owner.evaluate(() => {
        window.semRecarregar = true;
      });

      const payer = await stack.newPage(`cliente-${screen.width}`);
      await payer.setViewportSize(screen);
      await payer.goto(payerPath);
      await payer.getByRole("button", { name: "Simular pagamento" }).click();
      await waitForPath(payer, payerPath);
      await payer.getByRole("status").filter({ hasText: "Pagamento recebido" }).waitFor();
      const paidAt = Date.now();

      const fresh = owner.getByRole("listitem").filter({ hasText: "Acabou de chegar" });
      await fresh.waitFor({ timeout: ARRIVES_WITHIN_MS });
      const tookMs = Date.now() - paidAt;
      const card = await fresh.innerText();
      assert.match(card, /R\$\s12,50/);
      assert.match(card, /Recebido/i);
      assert.match(card, /agora · \d{2}:\d{2}/);
      assert.equal(await owner.evaluate(() => window.semRecarregar), true, "the screen was not reloaded");
      // Screen readers hear it too.
      await owner
        .getByRole("status")
        .filter({ hasText: /Pagamento de R\$\s12,50 recebido agora\./ })
        .waitFor({ state: "attached" });
      // The newest card is the first, and its amount is large.
      const first = owner.locator("ol.counter-payments > li").first();
      assert.equal(await first.innerText(), card);
      const size = await first.locator(".counter-amount").evaluate((node) => parseFloat(getComputedStyle(node).fontSize));
      assert.ok(size >= 36, `the amount is large (${size}px)`);
      console.log(`# ${screen.width}×${screen.height}: on the counter's screen ${tookMs} ms after the payer saw it received`);
      await shots(owner, `modo-balcao-chegou-${screen.width}`);
      await payer.context().close();
    });
  }

  each("the screen fits every screen size with payments listed", async () => {
    await expectFitsEveryScreen(owner, counterPath, async (page) => {
      await page.locator("ol.counter-payments").waitFor();
    });
  });
});
