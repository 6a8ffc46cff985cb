// Issue 12 in a real browser against the real server, with the built-in sandbox provider (no
// Asaas key, BALCAO_SANDBOX_PAYMENTS on, as `make run`): a free account registers its ten Pix
// keys, the eleventh is refused naming the limit and offering Premium; the owner upgrades on
// /painel/premium, pays on /pagar_asaas (the sandbox's payment, made from outside the page: the
// checkout learns of it over its live stream, without polling or a reload), lands on
// /painel/assinatura-realizada, and the eleventh key goes through.

import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe } from "node:test";

import { resultsDir, signUpThroughForm, startStack, stepsOf, uniqueEmail, waitForPath } from "./harness.mjs";

// Screenshots go beside the other results (ignored by git), or where BALCAO_SHOTS_DIR says.
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

async function registerKey(page, n) {
  const form = page.getByRole("form", { name: "Cadastrar chave Pix" });
  await form.getByLabel("Tipo da chave", { exact: true }).selectOption({ label: "Descobrir pelo que eu digitar" });
  await form.getByLabel("Chave Pix", { exact: true }).fill(`loja${n}@padaria.test`);
  await form.getByLabel("Nome do titular, como o banco mostra", { exact: true }).fill("Rita Lima");
  await form.getByLabel("Apelido (opcional)", { exact: true }).fill(`Caixa ${n}`);
  await form.getByRole("button", { name: "Cadastrar chave" }).click();
  return form;
}

describe("plano Grátis, limite e Premium pago no sandbox", () => {
  let stack;
  let owner;
  const person = { name: "Rita Lima", email: uniqueEmail("rita"), password: "Senha-da-Rita-1" };

  before(async () => {
    process.env.BALCAO_SANDBOX_PAYMENTS = "true";
    stack = await startStack("assinatura");
    owner = await stack.newPage("titular");
  });

  after(async () => {
    await stack?.stop();
  });

  const step = stepsOf(() => stack);

  step("a free account registers ten keys and the eleventh is refused naming the limit", async () => {
    await signUpThroughForm(owner, { name: person.name, email: person.email, password: person.password });
    await owner.goto("/painel/chaves");
    await owner.getByRole("heading", { level: 1, name: "Chaves Pix" }).waitFor();
    for (let n = 1; n <= 10; n += 1) {
      const form = await registerKey(owner, n);
      await form.getByText(new RegExp(`Chave loja${n}@padaria\\.test cadastrada`)).waitFor();
    }
    const form = await registerKey(owner, 11);
    await form.getByText(/O plano Grátis permite até 10 chaves Pix/).waitFor();
    await form.getByText(/Assine o Premium/).waitFor();
    assert.equal(await form.getByText(/Chave loja11@padaria\.test cadastrada/).count(), 0, "nothing made");
  });

  step("the plan menu entry shows Grátis with its usage, and the plans side by side", async () => {
    await owner.getByRole("navigation", { name: "Painel" }).getByRole("link", { name: "Plano" }).click();
    await waitForPath(owner, "/painel/assinatura");
    await owner.getByText("Plano Grátis", { exact: true }).waitFor();
    const keys = owner.getByRole("row").filter({ hasText: "Chaves Pix cadastradas" });
    assert.match(await keys.innerText(), /10\s+10/);
    await shoot(owner, "assinatura-gratis");
    await owner.getByRole("link", { name: "Conhecer o Premium" }).click();
    await waitForPath(owner, "/painel/premium");
    await owner.getByRole("heading", { name: "Premium mensal" }).waitFor();
    await owner.getByText("R$ 19,90 por mês").waitFor();
    await owner.getByText("R$ 199,00 por ano").waitFor();
    await shoot(owner, "premium");
  });

  step("on Grátis the transactions screen says it shows the last 90 days and keeps the older ones", async () => {
    await owner.goto("/painel/transacoes");
    const note = owner.getByRole("note").filter({ hasText: "últimos 90 dias" });
    await note.waitFor();
    assert.match(await note.innerText(), /Os anteriores continuam guardados e voltam a aparecer com o Premium/);
    await note.getByRole("link", { name: "Conhecer o Premium" }).waitFor();
    await shoot(owner, "transacoes-gratis");
    await owner.goto("/painel/premium");
    await owner.getByRole("heading", { name: "Premium mensal" }).waitFor();
  });

  step("the upgrade opens the checkout with the Pix, and the payment switches it live, without polling or a reload, to the confirmation", async () => {
    // Every time the page asks for the charge, and the bearer token the page sends.
    const chargePath = /\/api\/accounts\/[^/]+\/subscription\/charges\/[^/?]+$/;
    const asked = [];
    let authorization = null;
    owner.on("request", (request) => {
      const path = new URL(request.url()).pathname;
      if (request.method() === "GET" && chargePath.test(path)) asked.push(path);
      if (path.startsWith("/api/")) authorization = request.headers().authorization ?? authorization;
    });
    // On a phone the form opens under the cards: it must come into view.
    await owner.setViewportSize({ width: 390, height: 844 });
    await owner.getByRole("button", { name: "Assinar o Premium mensal" }).click();
    const payer = owner.getByLabel("Nome de quem paga", { exact: true });
    await payer.waitFor();
    const box = await payer.boundingBox();
    assert.ok(box !== null && box.y >= 0 && box.y + box.height <= 844, `the payer's name is in view (${JSON.stringify(box)})`);
    await owner.screenshot({ path: join(SHOTS, "premium-form-390x844.png") });
    await owner.setViewportSize({ width: 1366, height: 900 });
    await payer.fill("Rita Lima");
    await owner.getByLabel("CPF ou CNPJ de quem paga", { exact: true }).fill("529.982.247-25");
    await owner.getByRole("button", { name: "Gerar o Pix da assinatura" }).click();
    await waitForPath(owner, "/pagar_asaas");
    await owner.getByRole("img", { name: "QR code Pix da assinatura" }).waitFor();
    const code = await owner.getByLabel("Pix Copia e Cola", { exact: true }).inputValue();
    assert.match(code, /^000201/, "a BR Code");
    await owner.getByText("Aguardando o pagamento").waitFor();
    await owner.getByRole("button", { name: "Simular pagamento" }).waitFor();
    await shoot(owner, "pagar-asaas");

    // The checkout listens (server-sent events) instead of asking again on a timer: over the
    // next seconds it asks for the charge no more, however long the payer takes.
    asked.length = 0;
    await owner.waitForTimeout(7_000);
    assert.equal(asked.length, 0, `no polling while waiting (${asked.join(", ")})`);
    // Paid from elsewhere (as a bank's confirmation would arrive): the page is not the one that
    // pays, so only the stream can tell it. It switches without a reload.
    await owner.evaluate(() => {
      window.__sameDocument = true;
    });
    const chargeId = new URL(owner.url()).searchParams.get("cobranca");
    const accountPath = await owner.evaluate(
      async ({ id }) => {
        const entry = performance
          .getEntriesByType("resource")
          .map((e) => new URL(e.name).pathname)
          .find((p) => p.endsWith(`/subscription/charges/${id}`));
        return entry.replace(/\/charges\/[^/]+$/, "");
      },
      { id: chargeId },
    );
    const paid = await owner.evaluate(
      async ({ path, token }) => {
        const response = await fetch(path, {
          method: "POST",
          headers: { Authorization: token, "Content-Type": "application/json" },
          body: "{}",
        });
        return response.status;
      },
      { path: `${accountPath}/charges/${chargeId}/simulate`, token: authorization },
    );
    assert.equal(paid, 200, "the sandbox payment went through");
    await waitForPath(owner, "/painel/assinatura-realizada");
    assert.equal(await owner.evaluate(() => window.__sameDocument), true, "no reload: the same document");
    assert.ok(asked.length <= 1, `the charge asked for once, when the stream announced it (${asked.length})`);
    await owner.getByText(/Pagamento confirmado\. Sua conta é/).waitFor();
    await owner.getByText("Até 50 chaves Pix cadastradas").waitFor();
    await shoot(owner, "assinatura-realizada");
  });

  step("the limit is gone: the eleventh key is registered, and the subscription shows Premium", async () => {
    await owner.goto("/painel/chaves");
    const form = await registerKey(owner, 11);
    await form.getByText(/Chave loja11@padaria\.test cadastrada/).waitFor();
    await owner.goto("/painel/assinatura");
    await owner.getByText("Premium ativo", { exact: true }).waitFor();
    await owner.getByText(/Pago até/).waitFor();
    await shoot(owner, "assinatura-premium");
    // Premium shows the whole history: no note.
    await owner.goto("/painel/transacoes");
    await owner.getByRole("heading", { level: 1, name: "Transações" }).waitFor();
    await owner.getByText("Recebido", { exact: true }).first().waitFor();
    assert.equal(await owner.getByText(/últimos 90 dias/).count(), 0, "no history note on Premium");
  });
});
