// Issue 10, item 4, in a real browser against the real server: a visitor makes a sign without an
// account → lands on /placa-pix-criada/{id} (QR code, "Copiar código", downloads, management link)
// → "Salvar na minha conta" → creates an account from the sign-in page → the sign is saved in it
// and listed with the account's QR codes. The management link opens the sign in another browser.
// Then, as an owner, she makes a payment link: /pagar shows it to a payer, a changed link is a 400
// page, and once she cancels it the page says so (410).
//
// Before that, a U+0000 pasted into the name (issue 31) shows the form again with the message beside
// the field, the character taken out, on every screen size.
//
// E2E_SHOTS_DIR (optional): also save a screenshot of each screen there, at 390×844 and 1366×900.

import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe } from "node:test";

import { startStack, stepsOf, uniqueEmail, waitForPath } from "./harness.mjs";
import { expectFitsEveryScreen } from "./layout.mjs";

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1366, height: 900 };

/** Screenshots of the page as it is, at both sizes, when E2E_SHOTS_DIR is set. */
async function shots(page, name) {
  const dir = process.env.E2E_SHOTS_DIR;
  if (!dir) return;
  await mkdir(dir, { recursive: true });
  const before = page.viewportSize();
  for (const [label, size] of [
    ["390x844", PHONE],
    ["1366x900", DESKTOP],
  ]) {
    await page.setViewportSize(size);
    await page.screenshot({ path: join(dir, `${name}--${label}.png`), fullPage: label === "1366x900" });
  }
  if (before) await page.setViewportSize(before);
}

/** Whether the element's box lies inside the viewport. */
async function inView(page, locator) {
  const box = await locator.boundingBox();
  const viewport = page.viewportSize();
  return box !== null && box.y >= 0 && box.y + box.height <= viewport.height;
}

describe("a visitor's sign is saved in the account they create", () => {
  let stack;
  let visitor;
  let signPage;
  let managementLink;
  const step = stepsOf(() => stack);
  const email = uniqueEmail("carla");

  before(async () => {
    stack = await startStack("placa-anonima");
    visitor = await stack.newPage("visitante");
  });

  after(async () => {
    await stack?.stop();
  });

  step("a NUL pasted into the name is refused beside the field and taken out, on every screen", async () => {
    const message =
      "O campo Nome de quem recebe tinha um caractere nulo (U+0000), que não pode ser usado. Nós o apagamos: confira o texto e envie de novo.";
    const submitWithNul = async (page) => {
      await page.getByLabel("Tipo de chave").selectOption("email");
      await page.getByLabel("Chave Pix").fill("carla@doceria.com.br");
      await page.getByLabel("Cidade").fill("Recife");
      // Typing cannot make a U+0000; a paste from a broken source can: set it as the value.
      await page.getByLabel("Nome de quem recebe").evaluate((input) => {
        input.value = "Doceria\u0000 da Carla";
      });
      await page.getByRole("button", { name: "Revisar dados" }).click();
      await page.locator("#nome-erro").filter({ hasText: message }).waitFor();
    };
    await expectFitsEveryScreen(visitor, "/criar-placa-pix", submitWithNul);
    await visitor.setViewportSize(PHONE);
    await visitor.goto("/criar-placa-pix");
    await submitWithNul(visitor);
    assert.equal(await visitor.getByLabel("Nome de quem recebe").inputValue(), "Doceria da Carla");
    assert.equal(await visitor.getByRole("link", { name: message }).count(), 1, "the summary links to the field");
    assert.equal(new URL(visitor.url()).pathname, "/criar-placa-pix", "nothing was made");
    await shots(visitor, "criar-placa-pix-caractere-nulo");
  });

  step("the visitor makes a sign and lands on /placa-pix-criada/{id}", async () => {
    await visitor.setViewportSize(PHONE);
    await visitor.goto("/criar-placa-pix");
    await visitor.getByLabel("Tipo de chave").selectOption("email");
    await visitor.getByLabel("Chave Pix").fill("carla@doceria.com.br");
    await visitor.getByLabel("Nome de quem recebe").fill("Doceria da Carla");
    await visitor.getByLabel("Cidade").fill("Recife");
    await visitor.getByLabel("Valor (opcional)").fill("8,00");
    await visitor.getByRole("button", { name: "Revisar dados" }).click();
    await visitor.getByRole("button", { name: "Confirmar e criar QR code" }).click();
    await visitor.waitForURL((url) => url.pathname.startsWith("/placa-pix-criada/"));
    signPage = new URL(visitor.url()).pathname;
    await visitor.getByRole("heading", { level: 1, name: "Sua placa Pix está pronta" }).waitFor();
    const failures = [];
    for (const [what, locator] of [
      ["the QR code", visitor.locator("figure.qr svg")],
      ["the copy button", visitor.getByRole("button", { name: "Copiar código" })],
    ]) {
      if (!(await inView(visitor, locator))) failures.push(`${what} is below a phone's first screen`);
    }
    assert.deepEqual(failures, []);
    const id = signPage.split("/").pop();
    for (const kind of ["pdf", "png", "svg"]) {
      assert.equal(await visitor.locator(`a[href="/placas/${id}.${kind}"]`).count(), 1, `${kind} download`);
    }
    managementLink = await visitor.getByLabel("Link de gestão", { exact: true }).inputValue();
    assert.match(managementLink, new RegExp(`/placa-pix-criada/${id}\\?chave=`));
    await shots(visitor, "placa-pix-criada");
  });

  step("the management link opens the sign in another browser, and a changed one does not", async () => {
    const other = await stack.newPage("outro-aparelho");
    const opened = await other.goto(managementLink);
    assert.equal(opened.status(), 200);
    await other.getByRole("heading", { level: 1, name: "Sua placa Pix está pronta" }).waitFor();
    const wrong = await other.goto(`${managementLink}x`);
    assert.equal(wrong.status(), 404);
    const bare = await other.goto("/placa-pix-criada");
    assert.equal(bare.status(), 200);
    await other.getByRole("link", { name: "Criar uma placa Pix" }).first().waitFor();
  });

  step("“Salvar na minha conta” asks to sign in; she creates an account and the sign is saved", async () => {
    await visitor.goto(signPage);
    await visitor.getByRole("link", { name: "Salvar na minha conta" }).click();
    await waitForPath(visitor, "/entrar");
    await visitor.getByRole("link", { name: "Criar conta", exact: true }).click();
    await waitForPath(visitor, "/criar-conta");
    await visitor.getByLabel("Seu nome", { exact: true }).fill("Carla Mendes");
    await visitor.getByLabel("E-mail", { exact: true }).fill(email);
    await visitor.getByLabel("Senha", { exact: true }).fill("Senha-da-carla-42");
    await visitor.getByRole("button", { name: "Criar conta", exact: true }).click();
    await waitForPath(visitor, "/painel/salvar-placa");
    await visitor.getByText("Pronto! A placa agora está na sua conta").waitFor();
    await shots(visitor, "salvar-placa");
  });

  step("the sign is listed with the account's QR codes", async () => {
    await visitor.getByRole("link", { name: "Ver meus QR codes" }).click();
    await waitForPath(visitor, "/painel/qrcodes");
    await visitor.locator("ul.qrcodes li", { hasText: "DOCERIA DA CARLA" }).waitFor();
    await visitor.locator("ul.qrcodes li", { hasText: "R$ 8,00" }).waitFor();
  });

  step("the sign's page now says it is saved in an account", async () => {
    await visitor.goto(managementLink);
    await visitor.getByText("Esta placa já está salva em uma conta do Balcão.").waitFor();
  });

  step("as an owner now, she makes a payment link; /pagar shows it and a changed link is refused", async () => {
    await visitor.setViewportSize(DESKTOP);
    await visitor.goto("/painel/links-de-pagamento");
    await visitor.getByLabel("Chave Pix").fill("carla@doceria.com.br");
    await visitor.getByLabel("Nome de quem recebe").fill("Doceria da Carla");
    await visitor.getByLabel("Cidade").fill("Recife");
    await visitor.getByLabel("Valor", { exact: true }).fill("35,00");
    await visitor.getByLabel("Descrição (opcional)").fill("Bolo de pote, 5 unidades");
    await visitor.getByRole("button", { name: "Criar link de pagamento" }).click();
    await visitor.getByText("Link de pagamento criado").waitFor();
    const url = new URL(await visitor.locator(".link-url a").first().getAttribute("href"));
    await visitor.locator("ul.payment-links li", { hasText: "R$ 35,00" }).waitFor();
    await shots(visitor, "links-de-pagamento");
    await visitor.setViewportSize(PHONE);
    const amountLines = await visitor
      .getByText("Link de pagamento criado")
      .locator(".amount")
      .evaluate((amount) => amount.getClientRects().length);
    assert.equal(amountLines, 1, "on a phone the amount keeps R$ and its number on one line");
    await visitor.setViewportSize(DESKTOP);
    const payer = await stack.newPage("cliente");
    await payer.setViewportSize(PHONE);
    const opened = await payer.goto(`${url.pathname}${url.search}`);
    assert.equal(opened.status(), 200);
    await payer.getByRole("heading", { level: 1, name: "Pagar DOCERIA DA CARLA" }).waitFor();
    assert.ok(await inView(payer, payer.getByRole("button", { name: "Copiar código" })), "copy button in view");
    await shots(payer, "pagar");
    const tampered = await payer.goto(`${url.pathname}${url.search.replace(/.$/, (c) => (c === "A" ? "B" : "A"))}`);
    assert.equal(tampered.status(), 400);
    await payer.getByRole("heading", { name: "Link de pagamento inválido" }).waitFor();
    await shots(payer, "pagar-invalido");

    await visitor.getByRole("button", { name: /Cancelar link/ }).first().click();
    await visitor.getByRole("button", { name: "Sim, cancelar o link" }).click();
    await visitor.locator("ul.payment-links li", { hasText: "Cancelado" }).waitFor();
    // The page reads the read model, which follows the command within moments: look again a
    // few times (bounded) rather than once.
    let revoked = await payer.goto(`${url.pathname}${url.search}`);
    for (let tries = 0; revoked.status() !== 410 && tries < 20; tries += 1) {
      await payer.waitForTimeout(250);
      revoked = await payer.goto(`${url.pathname}${url.search}`);
    }
    assert.equal(revoked.status(), 410);
    await payer.getByRole("heading", { name: "Este link de pagamento foi cancelado" }).waitFor();
  });
});
