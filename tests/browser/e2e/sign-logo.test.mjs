// Issue 11 item 5 in a real browser against the real server, with the built-in sandbox provider:
// on /painel/criar-qrcode the owner of a free account chooses a logo for her signs and is told it
// is a Premium feature (with the way to Premium); she pays Premium in the sandbox, comes back,
// uploads a PNG (the section shows the upload's progress, then the logo), and the sign files of
// her codes now carry it.

import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe } from "node:test";

import { PNG } from "pngjs";

import { resultsDir, signUpThroughForm, startStack, stepsOf, uniqueEmail, waitForPath } from "./harness.mjs";

const SHOTS = process.env.BALCAO_SHOTS_DIR ?? resultsDir;
const SCREENS = [
  [390, 844],
  [1366, 900],
];

async function shoot(page, name) {
  for (const [width, height] of SCREENS) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: join(SHOTS, `${name}-${width}x${height}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1366, height: 900 });
}

/** A 600×200 logo: a red band on white, as a real PNG. */
function logoPng() {
  const png = new PNG({ width: 600, height: 200 });
  for (let y = 0; y < 200; y += 1) {
    for (let x = 0; x < 600; x += 1) {
      const i = (y * 600 + x) * 4;
      const band = y > 50 && y < 150;
      png.data[i] = band ? 200 : 255;
      png.data[i + 1] = band ? 30 : 255;
      png.data[i + 2] = band ? 30 : 255;
      png.data[i + 3] = 255;
    }
  }
  return PNG.sync.write(png);
}

describe("logotipo nas placas: Premium, envio com progresso", () => {
  let stack;
  let owner;
  const person = { name: "Rita Lima", email: uniqueEmail("rita-logo"), password: "Senha-da-Rita-1" };
  const file = { name: "logo-da-padaria.png", mimeType: "image/png", buffer: logoPng() };
  // The upload's own request: its bearer token and its account, for the sign files' check.
  let upload;

  before(async () => {
    process.env.BALCAO_SANDBOX_PAYMENTS = "true";
    stack = await startStack("logotipo");
    owner = await stack.newPage("titular");
  });

  after(async () => {
    await stack?.stop();
  });

  const step = stepsOf(() => stack);

  step("on Grátis, choosing a logo says it is Premium and links to it", async () => {
    await signUpThroughForm(owner, { name: person.name, email: person.email, password: person.password });
    await owner.goto("/painel/criar-qrcode");
    const section = owner.getByRole("region", { name: "Logotipo nas placas" });
    await section.getByText("Sem logotipo").waitFor();
    await section.getByLabel("Escolher o logotipo", { exact: true }).setInputFiles(file);
    await section.getByRole("alert").getByText(/O logotipo nas placas faz parte do Premium/).waitFor();
    await section.getByRole("link", { name: "Conhecer o Premium" }).waitFor();
    await shoot(owner, "logotipo-gratis");
  });

  step("a file that is not an image is refused before it is sent", async () => {
    const section = owner.getByRole("region", { name: "Logotipo nas placas" });
    await section
      .getByLabel("Escolher o logotipo", { exact: true })
      .setInputFiles({ name: "planilha.csv", mimeType: "text/csv", buffer: Buffer.from("a;b\n") });
    await section.getByRole("alert").getByText("Use um logotipo em PNG, JPEG ou SVG.").waitFor();
  });

  step("after paying Premium in the sandbox, the logo uploads with its progress and shows", async () => {
    await owner.goto("/painel/premium");
    await owner.getByRole("button", { name: "Assinar o Premium mensal" }).click();
    await owner.getByLabel("Nome de quem paga", { exact: true }).fill("Rita Lima");
    await owner.getByLabel("CPF ou CNPJ de quem paga", { exact: true }).fill("529.982.247-25");
    await owner.getByRole("button", { name: "Gerar o Pix da assinatura" }).click();
    await waitForPath(owner, "/pagar_asaas");
    await owner.getByRole("button", { name: "Simular pagamento" }).click();
    await waitForPath(owner, "/painel/assinatura-realizada");

    await owner.goto("/painel/criar-qrcode");
    const section = owner.getByRole("region", { name: "Logotipo nas placas" });
    await section.getByText("Sem logotipo").waitFor();
    // Record every progress the section shows while the file goes.
    await owner.evaluate(() => {
      window.__progress = [];
      new MutationObserver(() => {
        const bar = document.querySelector(".upload-progress progress");
        if (bar) window.__progress.push(Number(bar.getAttribute("value")));
      }).observe(document.body, { subtree: true, childList: true, attributes: true });
    });
    const sent = owner.waitForRequest((request) => request.url().endsWith("/sign-logo") && request.method() === "PUT");
    await section.getByLabel("Escolher o logotipo", { exact: true }).setInputFiles(file);
    upload = await sent;
    await section.getByText(/Logotipo salvo/).waitFor();
    const progress = await owner.evaluate(() => window.__progress);
    assert.ok(progress.length > 0, "the progress bar showed while the logo was sent");
    const preview = section.getByRole("img", { name: "Logotipo atual das placas" });
    await preview.waitFor();
    // The stored logo, read back from the server, is the 600-pixel-wide file.
    await owner.waitForFunction((img) => img.complete && img.naturalWidth === 600, await preview.elementHandle());
    await section.getByRole("button", { name: "Remover logotipo" }).waitFor();
    await shoot(owner, "logotipo-premium");
  });

  step("the sign files of her codes carry the logo", async () => {
    const authorization = upload.headers().authorization;
    const accountId = new URL(upload.url()).pathname.split("/")[3];
    const made = await owner.request.post(`${stack.baseUrl}/api/accounts/${accountId}/qrcodes`, {
      headers: { Authorization: authorization },
      data: { pixKey: "rita@padaria.test", merchantName: "Padaria da Rita", merchantCity: "Recife" },
    });
    assert.equal(made.status(), 201, await made.text());
    const { id } = await made.json();
    const svg = await owner.request.get(`${stack.baseUrl}/placas/${id}.svg`);
    assert.equal(svg.status(), 200);
    assert.match(await svg.text(), /<image[^>]+data:image\/png;base64,/, "the sign embeds the logo");
  });
});
