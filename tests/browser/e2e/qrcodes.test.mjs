// Issue 10, item 2, in a real browser against the real server: an owner registers a Pix key at
// /painel/chaves → /painel/criar-qrcode starts with that key and its holder name → a batch of 5
// codes (MESA01…MESA05) → a PNG downloaded from the batch's result decodes, with an independent
// decoder (jsQR over pngjs, nothing of Balcão's), to the code's payload → its payer page shows that
// payload. Then one code with an amount: its PNG (at a chosen size) and its PDF (rasterised by
// poppler's pdftoppm) decode to its payload, and the share links point at its payer page. Last,
// /painel/qrcodes lists the codes and finds one by its label.
//
// E2E_SHOTS_DIR (optional): also save a screenshot of each screen there, at 390×844 and 1366×900.

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe } from "node:test";
import { promisify } from "node:util";

import jsQR from "jsqr";
import { PNG } from "pngjs";

import { signUpThroughForm, startStack, stepsOf, uniqueEmail, waitForPath } from "./harness.mjs";

const run = promisify(execFile);

/** Every QR code jsQR finds in a PNG file's bytes (it reads one per image: the sign has one). */
function decodePng(bytes) {
  const image = PNG.sync.read(bytes);
  const found = jsQR(new Uint8ClampedArray(image.data), image.width, image.height);
  return found === null ? null : found.data;
}

/** The download a click on `link` starts, as bytes. */
async function download(page, link) {
  const [file] = await Promise.all([page.waitForEvent("download"), link.click()]);
  const path = await file.path();
  return { name: file.suggestedFilename(), bytes: await readFile(path) };
}

/** Every page of the PDF rasterised at 150 dpi by poppler (not Balcão), as PNG bytes, in page order. */
async function rasterisePages(pdf) {
  const dir = await mkdtemp(join(tmpdir(), "balcao-pdf-"));
  try {
    const { writeFile } = await import("node:fs/promises");
    await writeFile(join(dir, "placa.pdf"), pdf);
    await run("pdftoppm", ["-r", "150", "-png", join(dir, "placa.pdf"), join(dir, "pagina")]);
    // pdftoppm pads the page numbers to one width, so the names sort in page order.
    const pages = (await readdir(dir)).filter((name) => name.startsWith("pagina") && name.endsWith(".png")).sort();
    return await Promise.all(pages.map((name) => readFile(join(dir, name))));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The PDF's one page rasterised at 150 dpi by poppler, as PNG bytes. */
async function rasterise(pdf) {
  const pages = await rasterisePages(pdf);
  assert.equal(pages.length, 1, "a one-page PDF");
  return pages[0];
}

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1366, height: 900 };

/** Screenshots of the page as it is, at both sizes, when E2E_SHOTS_DIR is set. */
async function shots(page, name) {
  const dir = process.env.E2E_SHOTS_DIR;
  if (!dir) return;
  await mkdir(dir, { recursive: true });
  const previous = page.viewportSize();
  for (const [label, size] of [
    ["390x844", PHONE],
    ["1366x900", DESKTOP],
  ]) {
    await page.setViewportSize(size);
    await page.screenshot({ path: join(dir, `${name}--${label}.png`), fullPage: true });
  }
  if (previous) await page.setViewportSize(previous);
}

describe("a shop owner's key becomes a batch of codes that scan, download and open", () => {
  let stack;
  let owner;
  let batch;
  let single;
  const step = stepsOf(() => stack);

  before(async () => {
    stack = await startStack("qrcodes");
    owner = await stack.newPage("titular");
  });

  after(async () => {
    await stack?.stop();
  });

  step("the owner signs up and registers an e-mail key at /painel/chaves", async () => {
    await signUpThroughForm(owner, { name: "Rita Gomes", email: uniqueEmail("rita"), password: "Senha-da-Rita-7" });
    await owner.goto("/painel/chaves");
    const form = owner.getByRole("form", { name: "Cadastrar chave Pix" });
    await form.getByLabel("Chave Pix", { exact: true }).fill("caixa@bardarita.com.br");
    await form.getByLabel("Nome do titular, como o banco mostra", { exact: true }).fill("Rita Gomes");
    await form.getByLabel("Apelido (opcional)", { exact: true }).fill("Caixa do bar");
    await form.getByRole("button", { name: "Cadastrar chave" }).click();
    await form.getByRole("status").filter({ hasText: "é a chave padrão desta conta" }).waitFor();
  });

  step("/painel/criar-qrcode starts with the default key and its holder name", async () => {
    await owner.goto("/painel/criar-qrcode");
    const form = owner.getByRole("form", { name: "Criar QR code" });
    const picker = form.getByRole("combobox", { name: "Chave Pix", exact: true });
    await owner.waitForFunction(
      (select) => select.selectedOptions[0]?.textContent === "Caixa do bar: caixa@bardarita.com.br (padrão)",
      await picker.elementHandle(),
    );
    assert.equal(await form.getByLabel("Nome de quem recebe", { exact: true }).inputValue(), "Rita Gomes");
    await form.getByText("Em nome de Rita Gomes").waitFor();
    await form.getByLabel("Cidade", { exact: true }).fill("Olinda");
    // The preview of how name and city are written into the code.
    await form.getByText(/^No QR code: RITA GOMES, OLINDA$/).waitFor();
    await shots(owner, "criar-qrcode-formulario");
  });

  step("a batch of 5 (MESA01…MESA05) is made from the registered key", async () => {
    await owner.getByRole("button", { name: "Vários de uma vez" }).click();
    const form = owner.getByRole("form", { name: "Criar QR codes em lote" });
    await owner.waitForFunction(
      (select) => select.selectedOptions[0]?.textContent?.startsWith("Caixa do bar"),
      await form.getByRole("combobox", { name: "Chave Pix", exact: true }).elementHandle(),
    );
    await form.getByLabel("Cidade", { exact: true }).fill("Olinda");
    await form.getByLabel("Prefixo", { exact: true }).fill("MESA");
    await form.getByLabel("Quantidade", { exact: true }).fill("5");
    await form.getByText(/^No QR code: RITA GOMES, OLINDA$/).waitFor();
    const [answer] = await Promise.all([
      owner.waitForResponse((r) => r.url().endsWith("/qrcodes/lote") && r.request().method() === "POST"),
      form.getByRole("button", { name: "Criar QR codes" }).click(),
    ]);
    assert.equal(answer.status(), 201);
    batch = (await answer.json()).qrcodes;
    assert.equal(batch.length, 5);
    assert.deepEqual(
      batch.map((code) => code.description),
      ["MESA01", "MESA02", "MESA03", "MESA04", "MESA05"],
    );
    assert.equal(new Set(batch.map((code) => code.txid)).size, 5, "each its own txid");
    for (const code of batch) assert.equal(code.pixKey, "caixa@bardarita.com.br");
    await form.getByRole("status").filter({ hasText: "5 QR codes criados." }).waitFor();
    await shots(owner, "criar-qrcode-lote");
  });

  step("a PNG downloaded from the batch decodes, with jsQR, to its code's payload", async () => {
    const item = owner.locator("ul.batch-result li").filter({ hasText: "MESA03" });
    const png = await download(owner, item.getByRole("link", { name: "PNG de MESA03" }));
    assert.match(png.name, /\.png$/);
    const third = batch.find((code) => code.description === "MESA03");
    assert.equal(decodePng(png.bytes), third.payload);
  });

  step("the whole batch's signs download as one PDF, one page per code", async () => {
    const form = owner.getByRole("form", { name: "Criar QR codes em lote" });
    const pdf = await download(owner, form.getByRole("link", { name: "Baixar todas as placas (PDF A4)" }));
    assert.equal(pdf.name, "placas-pix-lote-rita-gomes-a4.pdf");
    const pages = await rasterisePages(pdf.bytes);
    assert.deepEqual(
      pages.map((page) => decodePng(page)),
      batch.map((code) => code.payload),
      "each page, rasterised by poppler and read by jsQR, is its own code, in the batch's order",
    );
  });

  step("the payer page of a batch code opens with its payload", async () => {
    const item = owner.locator("ul.batch-result li").filter({ hasText: "MESA03" });
    const third = batch.find((code) => code.description === "MESA03");
    await item.getByRole("link", { name: "Página de pagamento de MESA03" }).click();
    await waitForPath(owner, `/pagamento/${third.id}`);
    assert.equal(await owner.getByLabel("Pix Copia e Cola").inputValue(), third.payload);
  });

  step("one code with an amount: its PNG at a chosen size and its PDF decode to its payload", async () => {
    await owner.goto("/painel/criar-qrcode");
    const form = owner.getByRole("form", { name: "Criar QR code" });
    await owner.waitForFunction(
      (select) => select.selectedOptions[0]?.textContent?.startsWith("Caixa do bar"),
      await form.getByRole("combobox", { name: "Chave Pix", exact: true }).elementHandle(),
    );
    await form.getByLabel("Cidade", { exact: true }).fill("Olinda");
    await form.getByLabel("Valor (opcional)", { exact: true }).fill("12,50");
    await form.getByLabel("Descrição (opcional)", { exact: true }).fill("Caldinho");
    await form.getByText(/^No QR code: RITA GOMES, OLINDA$/).waitFor();
    const [answer] = await Promise.all([
      owner.waitForResponse((r) => /\/qrcodes\?qr=svg$/.test(r.url()) && r.request().method() === "POST"),
      form.getByRole("button", { name: "Criar QR code" }).click(),
    ]);
    assert.equal(answer.status(), 201);
    single = await answer.json();
    const result = form.getByRole("article", { name: "QR code criado" });
    assert.equal(await result.getByLabel("Pix Copia e Cola").inputValue(), single.payload);
    await shots(owner, "criar-qrcode-resultado");

    for (const size of ["Só o código, 400 × 400 px (celular, WhatsApp)", "Placa A4 inteira, 2480 × 3508 px"]) {
      await result.getByLabel("Tamanho do PNG").selectOption({ label: size });
      const png = await download(owner, result.getByRole("link", { name: "Baixar PNG" }));
      assert.equal(decodePng(png.bytes), single.payload, `the PNG "${size}"`);
    }
    const pdf = await download(owner, result.getByRole("link", { name: "Baixar PDF" }));
    assert.equal(pdf.bytes.subarray(0, 5).toString(), "%PDF-");
    assert.equal(decodePng(await rasterise(pdf.bytes)), single.payload, "the PDF rasterised");
    const svg = await download(owner, result.getByRole("link", { name: "Baixar SVG" }));
    assert.match(svg.bytes.toString(), /<svg[\s>]/);
  });

  step("share: WhatsApp and the payer-page link carry the code's payer page", async () => {
    const result = owner.getByRole("article", { name: "QR code criado" });
    const whatsapp = await result.getByRole("link", { name: "Enviar pelo WhatsApp" }).getAttribute("href");
    const text = new URL(whatsapp).searchParams.get("text");
    assert.ok(text.endsWith(single.paymentUrl), `WhatsApp text: ${text}`);
    assert.ok(single.paymentUrl.endsWith(`/pagamento/${single.id}`));
    await result.getByRole("link", { name: "Abrir a página de pagamento" }).click();
    await waitForPath(owner, `/pagamento/${single.id}`);
    assert.equal(await owner.getByLabel("Pix Copia e Cola").inputValue(), single.payload);
  });

  step("/painel/qrcodes lists the six codes and finds one by its label", async () => {
    await owner.goto("/painel/qrcodes");
    const list = owner.locator("ul.qrcodes");
    await list.getByText("Caldinho").waitFor();
    assert.equal(await list.locator(":scope > li").count(), 6);
    assert.equal(await owner.getByRole("form", { name: "Criar QR code" }).count(), 0, "no second form");
    await shots(owner, "qrcodes");
    await owner.getByLabel("Buscar", { exact: true }).fill("MESA03");
    await owner.waitForFunction(() => document.querySelectorAll("ul.qrcodes > li").length === 1);
    await list.getByText("MESA03").waitFor();
  });

  // Issue 32: what a shop owner met on the first busy day, at both sizes.
  step("on a phone the Copia e Cola box shows the whole code, its last line too", async () => {
    await owner.setViewportSize(PHONE);
    await owner.goto("/painel/criar-qrcode");
    const form = owner.getByRole("form", { name: "Criar QR code" });
    await owner.waitForFunction(
      (select) => select.selectedOptions[0]?.textContent?.startsWith("Caixa do bar"),
      await form.getByRole("combobox", { name: "Chave Pix", exact: true }).elementHandle(),
    );
    await form.getByLabel("Cidade", { exact: true }).fill("Olinda");
    await form.getByLabel("Valor (opcional)", { exact: true }).fill("9,90");
    await form.getByLabel("Descrição (opcional)", { exact: true }).fill("Tapioca de queijo");
    await form.getByRole("button", { name: "Criar QR code" }).click();
    const box = form.getByRole("article", { name: "QR code criado" }).getByLabel("Pix Copia e Cola");
    await box.waitFor();
    for (const size of [PHONE, DESKTOP]) {
      await owner.setViewportSize(size);
      const { scroll, client } = await box.evaluate((area) => ({ scroll: area.scrollHeight, client: area.clientHeight }));
      assert.ok(scroll <= client + 1, `${size.width}px: the code needs ${scroll} px, the box shows ${client}`);
    }
    await shots(owner, "criar-qrcode-copia-e-cola");
  });

  step("keys read as Brazilians write them, and an e-mail typed as a CPF is kept and said not to be one", async () => {
    await owner.goto("/painel/chaves");
    const form = owner.getByRole("form", { name: "Cadastrar chave Pix" });
    for (const size of [PHONE, DESKTOP]) {
      await owner.setViewportSize(size);
      await form.getByLabel("Tipo da chave", { exact: true }).selectOption({ label: "CPF" });
      await form.getByLabel("Chave Pix", { exact: true }).fill("rita@bardarita.com.br");
      await form.getByLabel("Nome do titular, como o banco mostra", { exact: true }).fill("Rita Gomes");
      await form.getByRole("button", { name: "Cadastrar chave" }).click();
      await form.getByText("Isto não é um CPF: um CPF tem 11 números").waitFor();
      assert.equal(await form.getByLabel("Chave Pix", { exact: true }).inputValue(), "rita@bardarita.com.br");
      assert.equal(await form.getByText("Campo obrigatório.").count(), 0);
    }
    await shots(owner, "chaves-cpf-com-email");
    for (const [kind, typed] of [
      ["CPF", "52998224725"],
      ["Celular", "11987654321"],
      ["CNPJ", "11222333000181"],
    ]) {
      await form.getByLabel("Tipo da chave", { exact: true }).selectOption({ label: kind });
      await form.getByLabel("Chave Pix", { exact: true }).fill(typed);
      await form.getByLabel("Nome do titular, como o banco mostra", { exact: true }).fill("Rita Gomes");
      await form.getByRole("button", { name: "Cadastrar chave" }).click();
      await form.getByRole("status").filter({ hasText: "cadastrada" }).waitFor();
    }
    await owner.goto("/painel/criar-qrcode");
    const picker = owner.getByRole("form", { name: "Criar QR code" }).getByRole("combobox", { name: "Chave Pix", exact: true });
    await picker.locator("option", { hasText: "CNPJ" }).waitFor({ state: "attached" });
    const options = await picker.locator("option").allInnerTexts();
    for (const shown of ["CPF: 529.982.247-25", "Celular: (11) 98765-4321", "CNPJ: 11.222.333/0001-81"]) {
      assert.ok(options.includes(shown), `${shown} in ${JSON.stringify(options)}`);
    }
  });

  step("the name saved in 'Dados de quem recebe' is the one /painel/criar-qrcode starts with", async () => {
    await owner.goto("/painel/configuracoes");
    const settings = owner.getByRole("form", { name: "Seus dados" });
    await settings.getByLabel("Nome de quem recebe", { exact: true }).fill("Bar da Rita");
    await settings.getByLabel("Cidade", { exact: true }).fill("Olinda");
    await settings.getByRole("button", { name: "Salvar dados" }).click();
    await settings.getByText("Dados salvos.").waitFor();
    for (const size of [PHONE, DESKTOP]) {
      await owner.setViewportSize(size);
      await owner.goto("/painel/criar-qrcode");
      const form = owner.getByRole("form", { name: "Criar QR code" });
      const name = form.getByLabel("Nome de quem recebe", { exact: true });
      // The settings keep them as the code writes them (upper case, no accents).
      await owner.waitForFunction((input) => input.value === "BAR DA RITA", await name.elementHandle());
      assert.equal(await form.getByLabel("Cidade", { exact: true }).inputValue(), "OLINDA");
      // The key is still the saved one, and the hint says whose it is.
      await form.getByText("Em nome de Rita Gomes").waitFor();
    }
    await shots(owner, "criar-qrcode-dados-salvos");
  });

  step("a payment link is made with the saved key, at both sizes", async () => {
    for (const [size, amount] of [
      [PHONE, "15,00"],
      [DESKTOP, "25,00"],
    ]) {
      await owner.setViewportSize(size);
      await owner.goto("/painel/links-de-pagamento");
      const form = owner.getByRole("form", { name: "Criar link de pagamento" });
      await owner.waitForFunction(
        (select) => select.selectedOptions[0]?.textContent?.startsWith("Caixa do bar"),
        await form.getByRole("combobox", { name: "Chave Pix", exact: true }).elementHandle(),
      );
      await form.getByLabel("Valor", { exact: true }).fill(amount);
      await form.getByRole("button", { name: "Criar link de pagamento" }).click();
      await form.getByText(`Link de pagamento criado (R$ ${amount})`).waitFor();
    }
    await shots(owner, "links-de-pagamento-chave-salva");
  });

  step("the sign's code picker names a code by its description", async () => {
    await owner.goto("/painel/placas");
    const picker = owner.getByRole("form", { name: "Criar placa" }).getByRole("combobox", { name: "QR code", exact: true });
    await picker.locator("option", { hasText: "Caldinho" }).waitFor({ state: "attached" });
    assert.ok((await picker.locator("option").allInnerTexts()).includes("Caldinho · R$ 12,50 · RITA GOMES"));
  });

  step("an unknown /painel/ address answers 404 with the 'page not found' screen", async () => {
    for (const size of [PHONE, DESKTOP]) {
      await owner.setViewportSize(size);
      const answer = await owner.goto("/painel/uma-tela-que-nao-existe");
      assert.equal(answer.status(), 404);
      await owner.getByRole("heading", { level: 1, name: "Página não encontrada" }).waitFor();
    }
  });

  step("/painel/assinatura-realizada on Grátis is titled by its state, not 'Assinatura realizada'", async () => {
    for (const size of [PHONE, DESKTOP]) {
      await owner.setViewportSize(size);
      await owner.goto("/painel/assinatura-realizada");
      await owner.getByRole("heading", { level: 1, name: "Pagamento ainda não confirmado" }).waitFor();
      assert.equal(await owner.title(), "Pagamento ainda não confirmado · Balcão");
    }
    await shots(owner, "assinatura-nao-confirmada");
  });
});
