// Issue 15, live updates, in a real browser against the real server (sandbox payments on): the
// payer page and the dashboard home are open; someone presses "Simular pagamento" in another
// tab; the payer page says "Pagamento recebido" and the home's figures move, both without a
// reload (each page carries a marker set before the payment, which a reload would erase).
// SHOTS_DIR=/tmp/shots-live keeps screenshots of both at 390×844 and 1366×900.

import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe } from "node:test";

import { signUpThroughForm, startStack, stepsOf, uniqueEmail } from "./harness.mjs";
import { expectFitsEveryScreen } from "./layout.mjs";

// `balcao all` inherits the environment: the payer page offers "Simular pagamento".
process.env.BALCAO_SANDBOX_PAYMENTS = "true";

const SCREENS = [
  { width: 390, height: 844 },
  { width: 1366, height: 900 },
];

async function shoot(page, name) {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  await mkdir(dir, { recursive: true });
  const size = page.viewportSize();
  for (const screen of SCREENS) {
    await page.setViewportSize(screen);
    await page.screenshot({ path: join(dir, `${name}-${screen.width}x${screen.height}.png`), fullPage: true });
  }
  await page.setViewportSize(size);
}

const marked = (page) => page.evaluate(() => window.__semRecarregar === true);

describe("pagamento ao vivo", () => {
  let stack;
  let owner;
  let payer;
  let cashier;
  let payerPath;

  before(async () => {
    stack = await startStack("ao-vivo");
    owner = await stack.newPage("titular");
    payer = await stack.newPage("pagador");
    cashier = await stack.newPage("caixa");
  });

  after(async () => {
    await stack?.stop();
  });

  const step = stepsOf(() => stack);

  step("an owner makes a code of R$ 12,50", async () => {
    await signUpThroughForm(owner, { name: "Rita Alves", email: uniqueEmail("rita"), password: "Senha-da-Rita-7" });
    // Codes are made on /painel/criar-qrcode (no key registered yet: the key is typed).
    await owner.goto("/painel/criar-qrcode");
    const form = owner.getByRole("form", { name: "Criar QR code" });
    await form.getByLabel("Chave Pix", { exact: true }).fill("rita@doceria.com.br");
    await form.getByLabel("Nome de quem recebe", { exact: true }).fill("Doceria da Rita");
    await form.getByLabel("Cidade", { exact: true }).fill("Salvador");
    await form.getByLabel("Valor (opcional)", { exact: true }).fill("12,50");
    await form.getByLabel("Descrição (opcional)", { exact: true }).fill("Bolo de pote");
    await form.getByRole("button", { name: "Criar QR code" }).click();
    const result = owner.getByRole("article", { name: "QR code criado" });
    await result.waitFor();
    const link = result.getByRole("link", { name: "Abrir a página de pagamento" });
    payerPath = new URL(await link.getAttribute("href"), stack.baseUrl).pathname;
    assert.match(payerPath, /^\/pagamento\/[0-9a-f-]{36}$/);
  });

  step("the payer page and the dashboard home are open, nothing received yet", async () => {
    await payer.setViewportSize({ width: 390, height: 844 });
    await payer.goto(payerPath);
    await payer.getByRole("heading", { name: "Pagar Doceria da Rita" }).waitFor();
    assert.equal(await payer.getByText("Pagamento recebido").isVisible(), false);
    await owner.goto("/painel");
    await owner.getByRole("listitem", { name: "Hoje: R$ 0,00" }).waitFor();
    await owner.getByText("Ao vivo: os valores mudam sozinhos quando um pagamento chega.").waitFor();
    for (const page of [payer, owner]) await page.evaluate(() => (window.__semRecarregar = true));
  });

  step("a payment simulated in another tab reaches both pages without a reload", async () => {
    await cashier.goto(payerPath);
    await cashier.getByRole("button", { name: "Simular pagamento" }).click();
    await cashier.getByText("Pagamento recebido").waitFor();

    await payer.getByText("Pagamento recebido").waitFor();
    assert.equal(await marked(payer), true, "the payer page was not reloaded");
    const payerText = await payer.locator("main").innerText();
    assert.doesNotMatch(payerText, /Pagamento simulado no Balcão/, "never what the payer wrote");

    await owner.getByRole("listitem", { name: "Hoje: R$ 12,50" }).waitFor();
    await owner.getByText("Pagamento de R$ 12,50 recebido agora.").waitFor();
    await owner
      .getByRole("region", { name: "Últimos pagamentos" })
      .getByRole("listitem")
      .filter({ hasText: "Simulado" })
      .waitFor();
    assert.equal(await marked(owner), true, "the home was not reloaded");
    assert.match(
      await owner.getByRole("listitem", { name: "Hoje: R$ 12,50" }).innerText(),
      /1 pagamento · ticket médio R\$ 12,50/,
    );
  });

  step("both fit a phone and a laptop after the payment", async () => {
    await shoot(payer, "pagamento-recebido");
    await shoot(owner, "painel-inicio");
    await expectFitsEveryScreen(owner, "/painel", async (p) => {
      await p.getByRole("listitem", { name: "Hoje: R$ 12,50" }).waitFor();
    });
    // Opened anew, the payer page is ready to pay again (a sign is paid by many people).
    await expectFitsEveryScreen(payer, payerPath, async (p) => {
      await p.locator('[data-estado="aguardando"]').waitFor({ state: "attached" });
    });
  });
});
