// Issue 32, item 1, for a QR code made for one sale ("Uso único: um pagamento só"), in a real
// browser against the real server (sandbox payments on): the opposite of a reusable sign. Once it
// is paid, everyone sees "Este QR code já foi pago" without the code: the customer who paid, a
// page left open (it turns by itself), and another customer in another browser who opens the
// same address later. The owner's list says "Pago em …". The form offers "Uso único" only with
// an amount. At 390×844 and 1366×900; E2E_SHOTS_DIR=/tmp/x keeps screenshots.

import assert from "node:assert/strict";
import { after, before, describe } from "node:test";

import {
  PHONE_AND_LAPTOP,
  registerFirstKey,
  screenshotsAtBothSizes,
  signUpThroughForm,
  startStack,
  stepsOf,
  uniqueEmail,
  waitForPath,
} from "./harness.mjs";
import { expectFitsEveryScreen } from "./layout.mjs";

const SCREENS = PHONE_AND_LAPTOP;
const KEY = `bia.${Date.now()}@loja-e2e.com.br`;
const SINGLE_USE = "Uso único: um pagamento só";

const shots = screenshotsAtBothSizes;

describe("um QR code de uso único, feito para uma venda", () => {
  let stack;
  let owner;
  const step = stepsOf(() => stack);
  const selling = stepsOf(() => stack, step);

  before(async () => {
    process.env.BALCAO_SANDBOX_PAYMENTS = "true";
    stack = await startStack("qrcode-uso-unico");
    owner = await stack.newPage("titular");
  });

  after(async () => {
    await stack?.stop();
  });

  step("the owner registers her key", async () => {
    await signUpThroughForm(owner, { name: "Beatriz Lima", email: uniqueEmail("bia"), password: "Senha-da-Bia-7" });
    await registerFirstKey(owner, { key: KEY, holder: "Beatriz Lima" });
  });

  for (const screen of SCREENS) {
    selling(`${screen.width}×${screen.height}: once paid, everyone sees it paid, and the list says when`, async () => {
      const amount = screen.width < 500 ? "49,90" : "59,90";
      await owner.setViewportSize(screen);
      await owner.goto("/painel/criar-qrcode");
      const form = owner.getByRole("form", { name: "Criar QR code" });
      await owner.waitForFunction(
        (select) => select.selectedOptions[0]?.textContent?.includes("(padrão)"),
        await form.getByRole("combobox", { name: "Chave Pix", exact: true }).elementHandle(),
      );
      await form.getByLabel("Nome de quem recebe", { exact: true }).fill("Loja da Bia");
      await form.getByLabel("Cidade", { exact: true }).fill("Recife");
      // Only a code with a price can be for one sale.
      assert.equal(await form.getByRole("checkbox", { name: SINGLE_USE }).count(), 0);
      await form.getByLabel("Valor (opcional)", { exact: true }).fill(amount);
      const single = form.getByRole("checkbox", { name: SINGLE_USE });
      await single.check();
      await form.getByText("avisa a todos que já foi pago").waitFor();
      await shots(owner, `uso-unico-formulario-${screen.width}`);
      await form.getByRole("button", { name: "Criar QR code" }).click();
      const made = owner.getByRole("article", { name: "QR code criado" });
      await made.waitFor();
      await made.getByText("Um pagamento só").waitFor();
      const payerPath = await made.getByRole("link", { name: "Abrir a página de pagamento" }).getAttribute("href");
      assert.match(payerPath, /^\/pagamento\/[0-9a-f-]{36}$/);

      // One customer has the page open and waits; another, in another browser, pays it.
      const waiting = await stack.newPage(`aberta-${screen.width}`);
      await waiting.setViewportSize(screen);
      await waiting.goto(payerPath);
      await waiting.getByRole("button", { name: "Copiar código" }).waitFor();
      await waiting.locator('[data-estado="aguardando"]').waitFor({ state: "attached" });
      const paying = await stack.newPage(`paga-${screen.width}`);
      await paying.setViewportSize(screen);
      await paying.goto(payerPath);
      await paying.getByRole("button", { name: "Simular pagamento" }).click();
      await waitForPath(paying, payerPath);
      await paying.getByRole("heading", { name: "Este QR code já foi pago" }).waitFor();
      assert.equal(await paying.getByRole("button", { name: "Copiar código" }).count(), 0, "no code to pay again");
      await shots(paying, `uso-unico-pago-${screen.width}`);

      // The page left open turns by itself; whoever opens the address later sees it paid too.
      await waiting.getByRole("heading", { name: "Este QR code já foi pago" }).waitFor();
      const later = await stack.newPage(`depois-${screen.width}`);
      await later.setViewportSize(screen);
      const opened = await later.goto(payerPath);
      assert.equal(opened.status(), 200);
      await later.getByRole("heading", { name: "Este QR code já foi pago" }).waitFor();
      const text = await later.locator("main").innerText();
      assert.match(text, new RegExp(`recebeu R\\$\\s${amount} por este QR code em \\d{2}/\\d{2}/\\d{4} às \\d{2}:\\d{2}`));
      assert.match(text, /não pague de novo/);
      assert.equal(await later.getByRole("button", { name: "Copiar código" }).count(), 0);
      assert.equal(await later.locator("textarea").count(), 0, "no Pix Copia e Cola");
      assert.equal(await later.locator("main svg").count(), 0, "no code");
      await expectFitsEveryScreen(later, payerPath);

      // The owner's list says when.
      await owner.goto("/painel/qrcodes");
      const listed = owner.getByRole("listitem", { name: `LOJA DA BIA, R$ ${amount}` });
      await listed.getByText(/^Pago em \d{2}\/\d{2}\/\d{4}/).waitFor();
      await shots(owner, `uso-unico-lista-${screen.width}`);
      await expectFitsEveryScreen(owner, "/painel/qrcodes");
      for (const page of [waiting, paying, later]) await page.context().close();
    });
  }
});
