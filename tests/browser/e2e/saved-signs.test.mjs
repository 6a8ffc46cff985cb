// Issue 11 item 5, in a real browser against the real server: an owner makes a QR code, opens
// "Criar placa" on it from /painel/qrcodes, designs a sign while the live preview (the real SVG of
// /placas/{id}.svg) follows the form, saves it and finds it under "Placas salvas"; duplicates it,
// edits the copy, deletes the copy after confirming, and downloads the PDF of the sign she kept.
// (tests/browser/e2e/signs.test.mjs is the visitor's sign creator; this file is the dashboard's.)
//
// E2E_SHOTS_DIR (optional): also save a screenshot of each screen there, at 390×844 and 1366×900.

import assert from "node:assert/strict";
import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe } from "node:test";

import { signUpThroughForm, startStack, stepsOf, uniqueEmail, waitForPath } from "./harness.mjs";
import { expectFitsEveryScreen } from "./layout.mjs";

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
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(dir, `${name}--${label}.png`), fullPage: true });
  }
  if (previous) await page.setViewportSize(previous);
}

/**
 * The preview's address once the browser has drawn it (loaded, with a size). The image is a new
 * element for each address, so it is looked up afresh each time.
 */
async function drawnPreview(page, wanted) {
  const handle = await page.waitForFunction((part) => {
    // The creator's preview, or an editor's (both may be open): the one asking for `part`.
    const image = [...document.querySelectorAll(".sign-preview img")].find((img) =>
      (img.getAttribute("src") ?? "").includes(part),
    );
    return image?.complete && image.naturalWidth > 0 ? image.getAttribute("src") : null;
  }, wanted);
  return handle.jsonValue();
}

describe("an owner keeps her signs in the dashboard: make, list, duplicate, edit, delete, download", () => {
  let stack;
  let owner;
  let code;
  const step = stepsOf(() => stack);

  before(async () => {
    stack = await startStack("placas-salvas");
    owner = await stack.newPage("titular");
  });

  after(async () => {
    await stack?.stop();
  });

  step("the owner signs up and makes a QR code", async () => {
    await signUpThroughForm(owner, { name: "Lia Matos", email: uniqueEmail("lia"), password: "Senha-da-Lia-3" });
    await owner.goto("/painel/chaves");
    const keys = owner.getByRole("form", { name: "Cadastrar chave Pix" });
    await keys.getByLabel("Chave Pix", { exact: true }).fill("caixa@doceria-da-lia.com.br");
    await keys.getByLabel("Nome do titular, como o banco mostra", { exact: true }).fill("Lia Matos");
    await keys.getByRole("button", { name: "Cadastrar chave" }).click();
    await keys.getByRole("status").filter({ hasText: "é a chave padrão desta conta" }).waitFor();

    await owner.goto("/painel/criar-qrcode");
    const form = owner.getByRole("form", { name: "Criar QR code" });
    await owner.waitForFunction(
      (select) => select.value !== "",
      await form.getByRole("combobox", { name: "Chave Pix", exact: true }).elementHandle(),
    );
    await form.getByLabel("Cidade", { exact: true }).fill("Recife");
    await form.getByLabel("Valor (opcional)", { exact: true }).fill("8,00");
    const [answer] = await Promise.all([
      owner.waitForResponse((r) => new URL(r.url()).pathname.endsWith("/qrcodes") && r.request().method() === "POST"),
      form.getByRole("button", { name: "Criar QR code" }).click(),
    ]);
    assert.equal(answer.status(), 201);
    code = await answer.json();
  });

  step("“Criar placa” on the code opens the creator with it; the preview follows the choices", async () => {
    await owner.goto("/painel/qrcodes");
    const item = owner.getByRole("listitem").filter({ hasText: code.txid });
    await item.getByRole("link", { name: /^Criar placa/ }).waitFor();
    await shots(owner, "qrcodes-criar-placa");
    await item.getByRole("link", { name: /^Criar placa/ }).click();
    await waitForPath(owner, "/painel/placas");
    const form = owner.getByRole("form", { name: "Criar placa" });
    assert.equal(await form.getByRole("combobox", { name: "QR code" }).inputValue(), code.id);
    assert.equal(await drawnPreview(owner, `/placas/${code.id}.svg`), `/placas/${code.id}.svg`);

    await form.getByRole("combobox", { name: "Modelo" }).selectOption({ label: "Faixa" });
    await form.getByRole("combobox", { name: "Tamanho do papel" }).selectOption({ label: "A5 (14,8 × 21 cm)" });
    await form.getByLabel("Título (opcional)", { exact: true }).fill("Doces com Pix");
    const src = await drawnPreview(owner, "titulo=Doces+com+Pix");
    assert.equal(src, `/placas/${code.id}.svg?modelo=faixa&tamanho=a5&titulo=Doces+com+Pix`);
    await shots(owner, "placas-criador");
  });

  step("saved, the sign is listed with its files", async () => {
    const form = owner.getByRole("form", { name: "Criar placa" });
    await form.getByLabel("Nome da placa", { exact: true }).fill("Vitrine");
    const [answer] = await Promise.all([
      owner.waitForResponse((r) => r.url().endsWith("/placas") && r.request().method() === "POST"),
      form.getByRole("button", { name: "Salvar placa" }).click(),
    ]);
    assert.equal(answer.status(), 201, await answer.text());
    await form.getByText(/Placa “Vitrine” salva/).waitFor();
    const item = owner.getByRole("listitem", { name: "Vitrine" });
    await item.waitFor();
    assert.equal(
      await item.getByRole("link", { name: /^Baixar PDF/ }).getAttribute("href"),
      `/placas/${code.id}.pdf?modelo=faixa&tamanho=a5&titulo=Doces+com+Pix`,
    );
    await shots(owner, "placas-lista");
  });

  step("the screen, with its creator, preview and list, fits a small phone, a phone and a laptop", async () => {
    await expectFitsEveryScreen(owner, `/painel/placas?qrcode=${code.id}`, async (page) => {
      await page.getByRole("listitem", { name: "Vitrine" }).waitFor();
      await drawnPreview(page, `/placas/${code.id}.svg`);
    });
  });

  step("duplicated, the copy is listed and the page says so", async () => {
    const item = owner.getByRole("listitem", { name: "Vitrine" });
    await item.getByRole("button", { name: /^Duplicar/ }).click();
    await owner.getByRole("status").filter({ hasText: "Cópia criada: “Cópia de Vitrine”." }).waitFor();
    await owner.getByRole("listitem", { name: "Cópia de Vitrine" }).waitFor();
  });

  step("the copy is edited in place", async () => {
    const copy = owner.getByRole("listitem", { name: "Cópia de Vitrine" });
    await copy.getByRole("button", { name: /^Editar/ }).click();
    const form = copy.getByRole("form", { name: "Alterar a placa Cópia de Vitrine" });
    await form.getByLabel("Nome da placa", { exact: true }).fill("Balcão");
    await form.getByRole("combobox", { name: "Cores" }).selectOption({ label: "Vinho" });
    await drawnPreview(owner, "tema=vinho");
    await shots(owner, "placas-editar");
    await form.getByRole("button", { name: "Salvar alterações" }).click();
    await owner.getByRole("status").filter({ hasText: "Placa “Balcão” alterada." }).waitFor();
    const edited = owner.getByRole("listitem", { name: "Balcão" });
    await edited.getByText("Vinho", { exact: true }).waitFor();
  });

  step("deleting asks first, then the sign is gone and the page says so", async () => {
    const edited = owner.getByRole("listitem", { name: "Balcão" });
    await edited.getByRole("button", { name: /^Excluir/ }).click();
    const question = edited.getByRole("group");
    await question.getByText(/O QR code e os pagamentos dele não mudam/).waitFor();
    await shots(owner, "placas-excluir");
    await question.getByRole("button", { name: "Sim, excluir a placa" }).click();
    await owner.getByRole("status").filter({ hasText: "Placa “Balcão” excluída." }).waitFor();
    await owner.getByRole("listitem", { name: "Balcão" }).waitFor({ state: "detached" });
    await owner.getByRole("listitem", { name: "Vitrine" }).waitFor();
  });

  step("the kept sign's PDF downloads as a PDF", async () => {
    const item = owner.getByRole("listitem", { name: "Vitrine" });
    const link = item.getByRole("link", { name: /^Baixar PDF/ });
    const href = await link.getAttribute("href");
    const [file] = await Promise.all([owner.waitForEvent("download"), link.click()]);
    assert.match(file.suggestedFilename(), /\.pdf$/);
    const bytes = await readFile(await file.path());
    assert.equal(bytes.subarray(0, 5).toString("latin1"), "%PDF-");
    const response = await owner.request.get(`${stack.baseUrl}${href}`);
    assert.equal(response.status(), 200);
    assert.equal(response.headers()["content-type"], "application/pdf");
    assert.match(response.headers()["content-disposition"], /attachment; filename=".+\.pdf"/);
  });
});
