// Phone first: every public page, every article and every dashboard screen fits a 360 px phone,
// a 390 px phone and a laptop (no page wider than the screen, nothing sticking out, no text cut),
// and after each form step the next action is in view.

import assert from "node:assert/strict";
import { after, before, describe } from "node:test";

import { signUpThroughForm, startStack, stepsOf, uniqueEmail } from "./harness.mjs";
import { VIEWPORTS, expectFitsEveryScreen, layoutProblems } from "./layout.mjs";

/** Runs `check(path)` for every path and fails once, listing every path's problems. */
async function everyPath(paths, check) {
  const failures = [];
  for (const path of paths) {
    try {
      await check(path);
    } catch (error) {
      failures.push(error.message);
    }
  }
  assert.deepEqual(failures, [], failures.join("\n"));
}

/** Whether `locator`'s element is wholly inside the viewport right now. */
async function isInView(page, locator) {
  const box = await locator.boundingBox();
  const viewport = page.viewportSize();
  return (
    box !== null &&
    box.y >= 0 &&
    box.x >= 0 &&
    box.y + box.height <= viewport.height &&
    box.x + box.width <= viewport.width
  );
}

describe("every page fits a phone and a laptop", () => {
  let stack;
  let page;
  let payerPage;
  let signPage;
  const step = stepsOf(() => stack);

  before(async () => {
    stack = await startStack("layout");
    page = await stack.newPage("visitante");
  });

  after(async () => {
    await stack?.stop();
  });

  step("every public page and every article fits every screen", async () => {
    const sitemap = await (await fetch(`${stack.baseUrl}/sitemap.xml`)).text();
    const paths = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]).pathname);
    assert.ok(paths.length >= 24 + 5, `the sitemap lists the articles and pages (${paths.length})`);
    paths.push("/criar-placa-pix", "/uma-pagina-que-nao-existe");
    await everyPath([...new Set(paths)], (path) => expectFitsEveryScreen(page, path));
  });

  step("on a phone the public header is two rows at most: the brand, then every link", async () => {
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto("/");
    const rows = await page.evaluate(
      () =>
        new Set(
          [...document.querySelectorAll(".site-header li")]
            .map((li) => li.getBoundingClientRect())
            .filter((box) => box.height > 0)
            .map((box) => Math.round(box.top + box.height / 2)),
        ).size,
    );
    assert.equal(rows, 1, "the header's links share one line below the brand");
  });

  step("the home page shows a real sign made by the engine", async () => {
    await page.goto("/");
    const sign = page.locator(".hero-sign");
    await sign.getByText("Pague com").waitFor();
    assert.equal(await sign.locator("svg path").count() > 0, true, "the example sign's QR code is drawn");
  });

  step("after “Revisar dados” the review and its confirm button are in view and focused", async () => {
    const failures = [];
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await page.goto("/criar-placa-pix");
      await page.getByLabel("Tipo de chave").selectOption("email");
      await page.getByLabel("Chave Pix").fill("vendas@padaria.com.br");
      await page.getByLabel("Nome de quem recebe").fill("Padaria São João");
      await page.getByLabel("Cidade").fill("São Paulo");
      await page.getByLabel("Valor (opcional)").fill("12,50");
      await page.getByRole("button", { name: "Revisar dados" }).click();
      const confirm = page.getByRole("button", { name: "Confirmar e criar QR code" });
      await confirm.waitFor();
      if (!(await isInView(page, confirm))) {
        failures.push(`${viewport.width}×${viewport.height}: the confirm button is off screen`);
      }
      const focused = await page.evaluate(() => document.activeElement?.closest("section.preview") !== null);
      if (!focused) failures.push(`${viewport.width}×${viewport.height}: focus is not on the review`);
      for (const problem of await layoutProblems(page)) {
        failures.push(`${viewport.width}×${viewport.height}: ${problem}`);
      }
    }
    assert.deepEqual(failures, []);
    await page.getByRole("button", { name: "Confirmar e criar QR code" }).click();
    // The visitor lands on their sign's own page; its payer page has the same id.
    await page.waitForURL((url) => url.pathname.startsWith("/placa-pix-criada/"));
    signPage = new URL(page.url()).pathname;
    payerPage = signPage.replace("/placa-pix-criada/", "/pagamento/");
  });

  step("the sign's page shows the QR code and “Copiar código” on a phone's first screen, and fits", async () => {
    // The page opens for the holder of the sign's cookie, which this browser has.
    await expectFitsEveryScreen(page, signPage);
    await expectFitsEveryScreen(page, "/placa-pix-criada");
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(signPage);
    const failures = [];
    for (const [what, locator] of [
      ["the QR code", page.locator("svg").filter({ has: page.locator("path") }).first()],
      ["the copy button", page.getByRole("button", { name: "Copiar código" })],
    ]) {
      if (!(await isInView(page, locator))) failures.push(`${what} is below the first screen`);
    }
    assert.deepEqual(failures, []);
  });

  step("the payer page shows the amount, the code and “Copiar código” on a phone's first screen", async () => {
    await expectFitsEveryScreen(page, payerPage);
    await expectFitsEveryScreen(page, `${payerPage}/placa`);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(payerPage);
    const failures = [];
    for (const [what, locator] of [
      ["the amount", page.getByText("R$ 12,50").first()],
      ["the QR code", page.locator("svg").filter({ has: page.locator("path") }).first()],
      ["the copy button", page.getByRole("button", { name: "Copiar código" })],
    ]) {
      if (!(await isInView(page, locator))) failures.push(`${what} is below the first screen`);
    }
    assert.deepEqual(failures, []);
    // The header is the logo alone: nothing there sends the payer away from paying.
    assert.equal(await page.locator("header a", { hasText: "Criar conta" }).count(), 0);
  });

  step("every dashboard screen fits every screen", async () => {
    await page.setViewportSize({ width: 1366, height: 900 });
    await signUpThroughForm(page, { name: "Bruna Lima", email: uniqueEmail("bruna"), password: "Senha-da-bruna-42" });
    const screens = [
      "/painel",
      "/painel/boas-vindas",
      "/painel/qrcodes",
      "/painel/criar-qrcode",
      "/painel/chaves",
      "/painel/transacoes",
      "/painel/plano",
      "/painel/contas-extras",
      "/painel/criar-conta-extra",
      "/painel/configuracoes",
      "/painel/duvidas",
      "/painel/links-de-pagamento",
      "/painel/chaves-de-api",
      "/painel/webhooks",
      "/painel/placas",
      // Issue 12: plans and billing (the checkout without a charge says it is not found).
      "/painel/premium",
      "/painel/assinatura",
      "/painel/assinatura-realizada",
      "/pagar_asaas",
      "/painel/uma-tela-que-nao-existe",
    ];
    await everyPath(screens, (path) =>
      expectFitsEveryScreen(page, path, async (p) => {
        // The dashboard draws after its session is restored; wait for its main heading.
        await p.locator("h1").first().waitFor();
      }),
    );
  });

  step("a payment link made in the dashboard opens /pagar, which fits every screen", async () => {
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.goto("/painel/links-de-pagamento");
    await page.getByLabel("Chave Pix").fill("vendas@padaria.com.br");
    await page.getByLabel("Nome de quem recebe").fill("Padaria São João");
    await page.getByLabel("Cidade").fill("São Paulo");
    await page.getByLabel("Valor", { exact: true }).fill("45,90");
    await page.getByLabel("Descrição (opcional)").fill("Bolo de aniversário");
    await page.getByRole("button", { name: "Criar link de pagamento" }).click();
    const link = page.locator(".link-url a").first();
    await link.waitFor();
    const url = new URL(await link.getAttribute("href"));
    await expectFitsEveryScreen(page, "/painel/links-de-pagamento", async (p) => {
      await p.getByRole("heading", { name: "Links desta conta" }).waitFor();
      await p.locator(".payment-link").first().waitFor();
    });
    const pay = `${url.pathname}${url.search}`;
    await expectFitsEveryScreen(page, pay);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(pay);
    const failures = [];
    for (const [what, locator] of [
      ["the amount", page.getByText("R$ 45,90").first()],
      ["the QR code", page.locator("svg").filter({ has: page.locator("path") }).first()],
      ["the copy button", page.getByRole("button", { name: "Copiar código" })],
    ]) {
      if (!(await isInView(page, locator))) failures.push(`${what} is below the first screen`);
    }
    assert.deepEqual(failures, []);
    await expectFitsEveryScreen(page, "/pagar?link=feito-a-mao");
  });

  step("the sign-in, sign-up and recovery screens fit every screen", async () => {
    const visitor = await stack.newPage("outro-visitante");
    await everyPath(["/entrar", "/criar-conta", "/recuperar-senha"], (path) =>
      expectFitsEveryScreen(visitor, path, async (p) => {
        await p.locator("h1").first().waitFor();
      }),
    );
  });
});
