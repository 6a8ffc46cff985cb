// Issue 11, in a real browser against the real server: a visitor designs a sign in the creator
// (template, paper, colours, headline, footer) and watches the live preview follow the form; the
// review shows what goes into the code; once created, the sign's page offers the files in the
// chosen design (so does the print page, set for her paper): the PDF and the PNG download with
// their content types, the PNG decodes (jsQR) to the very code on the page; then she signs up and
// the sign is in her account. Without scripts the
// preview still shows, drawn from the submitted values.
//
// E2E_SHOTS_DIR (optional): also save a screenshot of each screen there, at 390×844 and 1366×900.

import assert from "node:assert/strict";
import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe } from "node:test";

import jsQR from "jsqr";
import { PNG } from "pngjs";

import { TIMEOUT_MS, startStack, stepsOf, uniqueEmail, waitForPath } from "./harness.mjs";

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
    // The preview redraws at a new width only if the image was loaded; give it a moment.
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(dir, `${name}--${label}.png`), fullPage: label === "1366x900" });
  }
  if (before) await page.setViewportSize(before);
}

/**
 * The preview image's current address, once the browser has drawn it. It asks again every 50 ms
 * from here (page timers do not run where scripts are off): waiting for a "load" event in the page
 * hung a CI run for good when the image had finished before the listener was added.
 */
async function drawnPreview(page) {
  const deadline = Date.now() + TIMEOUT_MS;
  for (;;) {
    const src = await page
      .locator("#previa")
      .evaluate((image) => (image.complete && image.naturalWidth > 0 ? image.currentSrc : null));
    if (src) return src;
    if (Date.now() > deadline) throw new Error(`the preview was not drawn within ${TIMEOUT_MS} ms`);
    await new Promise((wake) => setTimeout(wake, 50));
  }
}

describe("a visitor designs a sign, downloads it and keeps it in the account she creates", () => {
  let stack;
  let visitor;
  let signPage;
  let payload;
  const step = stepsOf(() => stack);
  const email = uniqueEmail("joana");

  before(async () => {
    stack = await startStack("placas");
    visitor = await stack.newPage("visitante");
  });

  after(async () => {
    await stack?.stop();
  });

  step("the creator's preview follows the form as she types and chooses", async () => {
    await visitor.setViewportSize(DESKTOP);
    await visitor.goto("/criar-placa-pix");
    assert.equal(await visitor.getByLabel("Título").inputValue(), "Pague com Pix");
    // Empty form: an invitation to fill it in (200, so the first load logs no error).
    const empty = await visitor.request.get(await visitor.locator("#previa").getAttribute("src"));
    assert.equal(empty.status(), 200);
    assert.equal(empty.headers()["content-type"], "image/svg+xml");
    assert.match(await empty.text(), /a sua placa aparece aqui/);
    // Half filled: the preview says what is missing (422, still an image).
    const half = await visitor.request.get("/criar-placa-pix/previa.svg?chave=123");
    assert.equal(half.status(), 422);
    assert.equal(half.headers()["content-type"], "image/svg+xml");
    assert.match(await half.text(), /Prévia da placa/);

    await visitor.getByLabel("Tipo de chave").selectOption("telefone");
    await visitor.getByLabel("Chave Pix").fill("(81) 98765-4321");
    await visitor.getByLabel("Nome de quem recebe").fill("Açaí da Joana");
    await visitor.getByLabel("Cidade").fill("Olinda");
    await visitor.getByLabel("Valor (opcional)").fill("15,00");
    await visitor.getByLabel("Modelo").selectOption("faixa");
    await visitor.getByLabel("Tamanho do papel").selectOption("a5");
    await visitor.getByLabel("Cores").selectOption("vinho");
    await visitor.getByLabel("Título").fill("Pix aceito aqui");
    const drawn = visitor.waitForResponse(
      (response) =>
        new URL(response.url()).pathname === "/criar-placa-pix/previa.svg" &&
        new URL(response.url()).searchParams.get("rodape") === "Aberto todo dia",
    );
    await visitor.getByLabel("Rodapé (opcional)").fill("Aberto todo dia");
    const response = await drawn;
    assert.equal(response.status(), 200);
    assert.equal(response.headers()["content-type"], "image/svg+xml");
    const src = new URL(await drawnPreview(visitor));
    for (const [name, value] of [
      ["modelo", "faixa"],
      ["tamanho", "a5"],
      ["tema", "vinho"],
      ["titulo", "Pix aceito aqui"],
      ["nome", "Açaí da Joana"],
    ]) {
      assert.equal(src.searchParams.get(name), value, name);
    }
    // A5 is 148 × 210 mm: the preview is that sheet, drawn (text as paths) in the chosen colour.
    const svg = await response.text();
    assert.match(svg, /width="148mm"/);
    assert.match(svg, /height="210mm"/);
    assert.match(svg.toLowerCase(), /#7a1f3d/);
    await shots(visitor, "criar-placa-pix-previa");
  });

  step("the review shows the name and city as the code carries them and the bank-name warning", async () => {
    await visitor.getByRole("button", { name: "Revisar dados" }).click();
    const review = visitor.locator("section.preview");
    await review.getByRole("heading", { name: "Confira antes de criar" }).waitFor();
    await review.getByText("ACAI DA JOANA", { exact: true }).waitFor();
    await review.getByText("OLINDA", { exact: true }).waitFor();
    await review.getByText("Chave celular: +5581987654321").waitFor();
    await review.getByText("o nome cadastrado na sua chave no banco, não o nome impresso na placa").waitFor();
    assert.equal(await review.locator(".cpf-warning").count(), 0, "no CPF warning for a phone key");
    // The design survived the round trip.
    assert.equal(await visitor.getByLabel("Modelo").inputValue(), "faixa");
    assert.equal(await visitor.getByLabel("Tamanho do papel").inputValue(), "a5");
    await drawnPreview(visitor);
    await shots(visitor, "criar-placa-pix-revisao");
  });

  step("she creates it and lands on its page, whose downloads carry her design", async () => {
    await visitor.getByRole("button", { name: "Confirmar e criar QR code" }).click();
    await visitor.waitForURL((url) => url.pathname.startsWith("/placa-pix-criada/"));
    signPage = new URL(visitor.url());
    assert.equal(signPage.searchParams.get("modelo"), "faixa");
    assert.equal(signPage.searchParams.get("tamanho"), "a5");
    await visitor.getByRole("heading", { level: 1, name: "Sua placa Pix está pronta" }).waitFor();
    payload = await visitor.getByLabel("Pix Copia e Cola").inputValue();
    assert.match(payload, /^000201/);
    await visitor.getByRole("link", { name: "PDF (A5 (14,8 × 21 cm))" }).waitFor();
    await shots(visitor, "placa-pix-criada-desenho");
  });

  step("the PDF and the PNG download with their content types, and the PNG scans to the code", async () => {
    const id = signPage.pathname.split("/").pop();
    const pdfLink = visitor.getByRole("link", { name: /^PDF/ });
    const pngLink = visitor.getByRole("link", { name: /^PNG/ });
    const pdfHref = await pdfLink.getAttribute("href");
    assert.ok(pdfHref.startsWith(`/placas/${id}.pdf?`), pdfHref);
    const pdfQuery = new URL(pdfHref, signPage).searchParams;
    assert.equal(pdfQuery.get("tema"), "vinho");
    assert.equal(pdfQuery.get("rodape"), "Aberto todo dia");

    const [pdfDownload] = await Promise.all([visitor.waitForEvent("download"), pdfLink.click()]);
    assert.equal(pdfDownload.suggestedFilename(), "placa-pix-acai-da-joana-a5.pdf");
    const pdf = await readFile(await pdfDownload.path());
    assert.equal(pdf.subarray(0, 5).toString("latin1"), "%PDF-");
    const pdfAnswer = await visitor.request.get(pdfHref);
    assert.equal(pdfAnswer.status(), 200);
    assert.equal(pdfAnswer.headers()["content-type"], "application/pdf");

    const [pngDownload] = await Promise.all([visitor.waitForEvent("download"), pngLink.click()]);
    assert.equal(pngDownload.suggestedFilename(), "placa-pix-acai-da-joana-a5.png");
    const pngAnswer = await visitor.request.get(await pngLink.getAttribute("href"));
    assert.equal(pngAnswer.status(), 200);
    assert.equal(pngAnswer.headers()["content-type"], "image/png");
    const image = PNG.sync.read(await readFile(await pngDownload.path()));
    // A5 at 300 dpi.
    assert.equal(image.width, 1748);
    assert.equal(image.height, 2480);
    const decoded = jsQR(new Uint8ClampedArray(image.data), image.width, image.height);
    assert.ok(decoded, "jsQR found no QR code in the PNG");
    assert.equal(decoded.data, payload);
  });

  step("the print page is set for her paper and its files carry her design", async () => {
    await visitor.getByRole("link", { name: "Imprimir placa" }).click();
    await visitor.waitForURL((url) => url.pathname.endsWith("/placa"));
    assert.equal(new URL(visitor.url()).searchParams.get("tamanho"), "a5");
    await visitor.locator("article.placa.placa-a5").waitFor();
    const pdf = new URL(
      await visitor.getByRole("link", { name: "PDF", exact: true }).getAttribute("href"),
      visitor.url(),
    );
    assert.equal(pdf.searchParams.get("modelo"), "faixa");
    assert.equal(pdf.searchParams.get("tema"), "vinho");
    await shots(visitor, "placa-impressao");
    await visitor.goto(signPage.pathname + signPage.search);
  });

  step("she signs up from “Salvar na minha conta” and the sign is in her account", async () => {
    await visitor.getByRole("link", { name: "Salvar na minha conta" }).click();
    await waitForPath(visitor, "/entrar");
    await visitor.getByRole("link", { name: "Criar conta", exact: true }).click();
    await waitForPath(visitor, "/criar-conta");
    await visitor.getByLabel("Seu nome", { exact: true }).fill("Joana Lima");
    await visitor.getByLabel("E-mail", { exact: true }).fill(email);
    await visitor.getByLabel("Senha", { exact: true }).fill("Senha-da-joana-42");
    await visitor.getByRole("button", { name: "Criar conta", exact: true }).click();
    await waitForPath(visitor, "/painel/salvar-placa");
    await visitor.getByText("Pronto! A placa agora está na sua conta").waitFor();
    await visitor.getByRole("link", { name: "Ver meus QR codes" }).click();
    await waitForPath(visitor, "/painel/qrcodes");
    await visitor.locator("ul.qrcodes li", { hasText: "ACAI DA JOANA" }).waitFor();
    await visitor.locator("ul.qrcodes li", { hasText: "R$ 15,00" }).waitFor();
  });

  step("without scripts the review still shows the preview, drawn from the submitted values", async () => {
    const context = await stack.browser.newContext({
      baseURL: stack.baseUrl,
      javaScriptEnabled: false,
      locale: "pt-BR",
      viewport: PHONE,
    });
    try {
      const page = await context.newPage();
      await page.goto("/criar-placa-pix");
      await page.getByLabel("Chave Pix").fill("123.456.789-09");
      await page.getByLabel("Nome de quem recebe").fill("Zé do Caldo");
      await page.getByLabel("Cidade").fill("Caruaru");
      await page.getByLabel("Modelo").selectOption("moldura");
      await page.getByRole("button", { name: "Revisar dados" }).click();
      await page.getByRole("heading", { name: "Confira antes de criar" }).waitFor();
      const src = new URL(await drawnPreview(page));
      assert.equal(src.searchParams.get("modelo"), "moldura");
      assert.equal(src.searchParams.get("nome"), "Zé do Caldo");
      const answer = await page.request.get(src.href);
      assert.equal(answer.status(), 200);
      // A CPF key: the review says the sign hides part of it and the code still carries it.
      const warning = page.locator(".cpf-warning");
      await warning.getByText("Sua chave é um CPF.").waitFor();
      await warning.getByText("***.456.789-**").waitFor();
      await warning.getByText("o QR code ainda carrega o CPF completo", { exact: false }).waitFor();
      await shots(page, "criar-placa-pix-sem-js-cpf");
    } finally {
      await context.close();
    }
  });
});
