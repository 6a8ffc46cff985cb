// Issue 32, items 1, 2 and 4, in a real browser against the real server (sandbox payments on):
// a shop's printed sign is paid by many people. The customer who pays ("Simular pagamento") sees
// their confirmation; the next customer, in another browser, opens the same address later and
// sees the code ready to pay. Both pages ask the payer to check the name their bank shows (the key
// holder's, "Beatriz Lima"), not the code's name ("LOJA DA BIA"). "Imprimir placa" prints the
// designed sign: the print media shows the sign file (SVG) of the very design the PDF has.
// A payment link is the opposite of a sign: made for one sale, once paid it says "já foi pago" to
// everyone — the payer who paid, a page left open (it turns by itself), and whoever opens it later.
// At 390×844 and 1366×900; E2E_SHOTS_DIR=/tmp/x keeps screenshots.

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
import { brokenWords, expectFitsEveryScreen } from "./layout.mjs";

const SCREENS = PHONE_AND_LAPTOP;
const KEY = `bia.${Date.now()}@loja-e2e.com.br`;
const FOOTER = "Aberto das 8h às 18h";

const shots = screenshotsAtBothSizes;

describe("uma placa paga por muitos clientes", () => {
  let stack;
  let owner;
  let payerPath;
  // The three checks need only the code; each goes on when another fails.
  const step = stepsOf(() => stack);
  const payments = stepsOf(() => stack, step);
  const naming = stepsOf(() => stack, step);
  const printing = stepsOf(() => stack, step);
  const selling = stepsOf(() => stack, step);

  before(async () => {
    process.env.BALCAO_SANDBOX_PAYMENTS = "true";
    stack = await startStack("placa-reutilizavel");
    owner = await stack.newPage("titular");
  });

  after(async () => {
    await stack?.stop();
  });

  step("the owner registers her key as Beatriz Lima and makes a code named Loja da Bia", async () => {
    await signUpThroughForm(owner, { name: "Beatriz Lima", email: uniqueEmail("bia"), password: "Senha-da-Bia-7" });
    await registerFirstKey(owner, { key: KEY, holder: "Beatriz Lima" });
    await owner.goto("/painel/criar-qrcode");
    const form = owner.getByRole("form", { name: "Criar QR code" });
    await owner.waitForFunction(
      (select) => select.selectedOptions[0]?.textContent?.includes("(padrão)"),
      await form.getByRole("combobox", { name: "Chave Pix", exact: true }).elementHandle(),
    );
    await form.getByLabel("Nome de quem recebe", { exact: true }).fill("Loja da Bia");
    await form.getByLabel("Cidade", { exact: true }).fill("Recife");
    await form.getByLabel("Valor (opcional)", { exact: true }).fill("12,50");
    await form.getByRole("button", { name: "Criar QR code" }).click();
    const made = owner.getByRole("article", { name: "QR code criado" });
    await made.waitFor();
    payerPath = await made.getByRole("link", { name: "Abrir a página de pagamento" }).getAttribute("href");
    assert.match(payerPath, /^\/pagamento\/[0-9a-f-]{36}$/);
  });

  for (const screen of SCREENS) {
    payments(`${screen.width}×${screen.height}: the customer who pays sees it received; the next one sees it ready to pay`, async () => {
      const paying = await stack.newPage(`paga-${screen.width}`);
      await paying.setViewportSize(screen);
      await paying.goto(payerPath);
      await paying.getByRole("heading", { name: "Pagar LOJA DA BIA" }).waitFor();
      assert.equal(await paying.getByText("Pagamento recebido").isVisible(), false);
      await paying.getByRole("button", { name: "Simular pagamento" }).click();
      await waitForPath(paying, payerPath);
      await paying.getByRole("status").filter({ hasText: "Pagamento recebido" }).waitFor();
      await shots(paying, `placa-paga-${screen.width}`);

      // Another person, another browser, the same address afterwards.
      const next = await stack.newPage(`proximo-${screen.width}`);
      await next.setViewportSize(screen);
      await next.goto(payerPath);
      await next.getByRole("heading", { name: "Pagar LOJA DA BIA" }).waitFor();
      await next.getByRole("button", { name: "Copiar código" }).waitFor();
      // The live stream has answered (a page opens with "not paid"), and the page offers the code.
      await next.locator('[data-estado="aguardando"]').waitFor({ state: "attached" });
      assert.equal(await next.getByText("Pagamento recebido").isVisible(), false, "the next customer has paid nothing");
      assert.equal(await next.locator("svg").first().isVisible(), true, "the code to pay is shown");
      await shots(next, `placa-proximo-${screen.width}`);
      await paying.context().close();
      await next.context().close();
    });
  }

  naming("the payer page asks to check the name the bank shows, the key holder's", async () => {
    const payer = await stack.newPage("nome");
    for (const screen of SCREENS) {
      await payer.setViewportSize(screen);
      await payer.goto(payerPath);
      const how = payer.getByRole("listitem").filter({ hasText: "Confira" });
      assert.match(await how.innerText(), /Confira se o app mostra Beatriz Lima como quem recebe, e o valor R\$\s12,50/);
      assert.doesNotMatch(await payer.locator("main").innerText(), /nome de quem recebe é LOJA DA BIA/);
    }
    await expectFitsEveryScreen(payer, payerPath);
    await payer.context().close();
  });

  printing("“Imprimir placa” prints the designed sign, the layout of its PDF", async () => {
    const page = await stack.newPage("impressao");
    const query = `?tamanho=a5&modelo=faixa&tema=vinho&rodape=${encodeURIComponent(FOOTER)}`;
    await page.goto(`${payerPath}/placa${query}`);
    const pdfHref = await page.getByRole("link", { name: "PDF", exact: true }).getAttribute("href");
    const pdfUrl = new URL(pdfHref, stack.baseUrl);
    for (const [name, value] of [
      ["modelo", "faixa"],
      ["tema", "vinho"],
      ["tamanho", "a5"],
      ["rodape", FOOTER],
    ]) {
      assert.equal(pdfUrl.searchParams.get(name), value, name);
    }
    const pdf = await page.request.get(pdfHref);
    assert.equal(pdf.status(), 200);
    assert.equal(pdf.headers()["content-type"], "application/pdf");

    await page.emulateMedia({ media: "print" });
    for (const screen of SCREENS) {
      await page.setViewportSize(screen);
      const printed = page.getByRole("img", { name: /Placa Pix/ });
      await printed.waitFor();
      // What prints is the sign file of the same design as the PDF (one layout renders both), and
      // nothing else; its description is that layout's text: city, key line, holder, footer.
      const src = new URL(await printed.getAttribute("src"), stack.baseUrl);
      assert.equal(src.pathname, pdfUrl.pathname.replace(/\.pdf$/, ".svg"));
      assert.equal(src.search, pdfUrl.search);
      assert.ok(await printed.evaluate((img) => img.complete && img.naturalWidth > 0), "the sign is drawn");
      const description = await printed.getAttribute("alt");
      for (const line of ["RECIFE", KEY, "Beatriz Lima", FOOTER]) assert.ok(description.includes(line), line);
      for (const hidden of ["Imprimir", "Voltar"]) {
        assert.equal(await page.getByRole("button", { name: hidden }).or(page.getByRole("link", { name: hidden })).isVisible(), false);
      }
      const box = await printed.boundingBox();
      assert.ok(box.width >= screen.width - 1, `the sign fills the sheet's width (${box.width} of ${screen.width})`);
    }
    await page.emulateMedia({ media: "screen" });
    await shots(page, "placa-impressao-tela");
    await page.emulateMedia({ media: "print" });
    await shots(page, "placa-impressao-papel");
    await page.context().close();
  });

  for (const screen of SCREENS) {
    selling(`${screen.width}×${screen.height}: a payment link is sold once, and once paid everyone sees it paid`, async () => {
      const amount = screen.width < 500 ? "35,00" : "36,00";
      await owner.setViewportSize(screen);
      await owner.goto("/painel/links-de-pagamento");
      const form = owner.getByRole("form", { name: "Criar link de pagamento" });
      await owner.waitForFunction(
        (select) => select.selectedOptions[0]?.textContent?.includes("(padrão)"),
        await form.getByRole("combobox", { name: "Chave Pix", exact: true }).elementHandle(),
      );
      await form.getByLabel("Cidade", { exact: true }).fill("Recife");
      await form.getByLabel("Valor", { exact: true }).fill(amount);
      await form.getByLabel("Descrição (opcional)").fill(`Encomenda ${screen.width}`);
      await form.getByRole("button", { name: "Criar link de pagamento" }).click();
      await owner.getByText("Link de pagamento criado").waitFor();
      const made = owner.locator("ul.payment-links li", { hasText: `R$ ${amount}` }).first();
      await made.waitFor();
      const url = new URL(await made.locator(".link-url a").getAttribute("href"));
      const linkPath = `${url.pathname}${url.search}`;

      // One customer has the link open and waits; another pays it.
      const waiting = await stack.newPage(`link-aberto-${screen.width}`);
      await waiting.setViewportSize(screen);
      await waiting.goto(linkPath);
      await waiting.getByRole("button", { name: "Copiar código" }).waitFor();
      await waiting.locator('[data-estado="aguardando"]').waitFor({ state: "attached" });
      const paying = await stack.newPage(`link-paga-${screen.width}`);
      await paying.setViewportSize(screen);
      await paying.goto(linkPath);
      await paying.getByRole("button", { name: "Simular pagamento" }).click();
      await paying.getByRole("heading", { name: "Este link já foi pago" }).waitFor();
      assert.equal(await paying.getByRole("button", { name: "Copiar código" }).count(), 0, "no code to pay again");
      await shots(paying, `link-pago-${screen.width}`);

      // The page left open turns by itself; whoever opens the link later sees it paid too.
      await waiting.getByRole("heading", { name: "Este link já foi pago" }).waitFor();
      const later = await stack.newPage(`link-depois-${screen.width}`);
      await later.setViewportSize(screen);
      const opened = await later.goto(linkPath);
      assert.equal(opened.status(), 200);
      await later.getByRole("heading", { name: "Este link já foi pago" }).waitFor();
      assert.match(await later.locator("main").innerText(), new RegExp(`recebeu R\\$\\s${amount} por este link`));
      assert.equal(await later.getByRole("button", { name: "Copiar código" }).count(), 0);
      await expectFitsEveryScreen(later, linkPath);

      // The owner's list says so.
      await owner.reload();
      const listed = owner.locator("ul.payment-links li", { hasText: `R$ ${amount}` }).first();
      await listed.locator(".badge", { hasText: "Pago" }).waitFor();
      await listed.getByText("Pago em").waitFor();
      assert.equal(await listed.getByRole("button", { name: /Cancelar link/ }).count(), 0);
      await shots(owner, `links-pago-${screen.width}`);

      // The transactions screen names the link the payment paid, not "Sem QR code".
      await owner.goto("/painel/transacoes");
      const row = owner
        .getByRole("table", { name: "Transações encontradas" })
        .getByRole("row")
        .filter({ hasText: `R$ ${amount}` })
        .first();
      await row.getByText(`Link de pagamento: Encomenda ${screen.width}`).waitFor();
      // A long name in the QR code column must not squeeze the others mid-word ("Simulaçã/o").
      assert.deepEqual(await brokenWords(owner, ".payments-table td"), []);
      await shots(owner, `transacoes-link-${screen.width}`);
      // And the home's recent payments say it came through a link.
      await owner.goto("/painel");
      await owner.locator(".recent-payments li", { hasText: `R$ ${amount}` }).getByText("link de pagamento").waitFor();
      // An amount is one word in the period cards too ("ticket médio R$ / 20,00" wrapped).
      const split = await owner.locator(".figure-detail").evaluateAll((details) =>
        details
          .filter((detail) => {
            const range = document.createRange();
            const amount = [...detail.childNodes].find((n) => n.textContent.includes("R$"));
            if (amount === undefined) return false;
            range.selectNodeContents(amount);
            return new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size > 1;
          })
          .map((detail) => detail.textContent),
      );
      assert.deepEqual(split, []);
      await shots(owner, `inicio-link-${screen.width}`);
      for (const page of [waiting, paying, later]) await page.context().close();
    });
  }
});
