// Issue 36 in a real browser against the real server: an owner makes an API key on
// /painel/chaves-de-api, sees its secret once, a program (here Node's fetch, as curl would) reaches
// /api/v1 with it, the list then shows its last use, and once revoked the same call is refused.
// The screen fits a phone and a laptop with the secret on it and with the list.

import assert from "node:assert/strict";
import { after, before, describe } from "node:test";

import { screenshotsAtBothSizes, signUpThroughForm, startStack, stepsOf, uniqueEmail } from "./harness.mjs";
import { expectFitsEveryScreen } from "./layout.mjs";

describe("chaves de API", () => {
  let stack;
  let owner;
  let secret;
  const owners = { name: "Rita Alves", email: uniqueEmail("rita"), password: "Senha-da-Rita-7" };

  before(async () => {
    stack = await startStack("chaves-de-api");
    owner = await stack.newPage("titular");
  });

  after(async () => {
    await stack?.stop();
  });

  const step = stepsOf(() => stack);

  /** `GET /api/v1/key` with `key`, as a shop's system would call it. */
  const callWith = (key) => fetch(`${stack.baseUrl}/api/v1/key`, { headers: { authorization: `Bearer ${key}` } });

  step("the menu leads an owner to the keys screen, empty at first", async () => {
    await signUpThroughForm(owner, owners);
    await owner.getByRole("link", { name: "Chaves de API" }).first().click();
    await owner.getByRole("heading", { level: 1, name: "Chaves de API" }).waitFor();
    await owner.getByText("Nenhuma chave de API ainda.").waitFor();
  });

  step("a key made with a name and a permission shows its secret once, in view", async () => {
    await owner.setViewportSize({ width: 390, height: 844 });
    const form = owner.getByRole("form", { name: "Criar chave de API" });
    await form.getByRole("button", { name: "Criar chave de API" }).click();
    await form.getByText("Escolha ao menos uma permissão para a chave.").waitFor();
    await form.getByLabel("Nome da chave").fill("Loja virtual");
    await form.getByLabel("Ver os pagamentos, os totais e o CSV").check();
    await form.getByRole("button", { name: "Criar chave de API" }).click();
    const shown = form.locator(".secret code");
    await shown.waitFor();
    secret = (await shown.textContent()).trim();
    assert.match(secret, /^balcao_[A-Za-z0-9_-]{43}$/);
    assert.ok(await shown.isVisible());
    const box = await shown.boundingBox();
    assert.ok(box.x >= 0 && box.x + box.width <= 390, `the secret fits the phone: ${JSON.stringify(box)}`);
    await form.getByText("não será mostrada de novo").waitFor();
    await screenshotsAtBothSizes(owner, "chaves-de-api-criada");
  });

  step("the program reaches /api/v1 with the secret, and the list shows its use", async () => {
    const answer = await callWith(secret);
    assert.equal(answer.status, 200);
    const body = await answer.json();
    assert.deepEqual(body.scopes, ["payments:read"]);
    assert.ok(Number(answer.headers.get("ratelimit-remaining")) > 0);
    await owner.reload();
    const card = owner.getByRole("listitem", { name: "Loja virtual" });
    await card.getByText("Ativa", { exact: true }).waitFor();
    await card.getByText(secret.slice(0, 12)).waitFor();
    assert.equal(await card.getByText("Nunca usada").count(), 0, "its use is shown");
    assert.equal(await owner.getByText(secret).count(), 0, "the secret is never shown again");
    await expectFitsEveryScreen(owner, "/painel/chaves-de-api", async (p) => {
      await p.getByRole("listitem", { name: "Loja virtual" }).waitFor();
    });
    await screenshotsAtBothSizes(owner, "chaves-de-api-lista");
  });

  step("a revoked key is refused at once", async () => {
    await owner.setViewportSize({ width: 390, height: 844 });
    const card = owner.getByRole("listitem", { name: "Loja virtual" });
    await card.getByRole("button", { name: "Revogar a chave Loja virtual" }).click();
    await card.getByRole("button", { name: "Sim, revogar a chave" }).click();
    await card.getByText("Revogada", { exact: true }).first().waitFor();
    const answer = await callWith(secret);
    assert.equal(answer.status, 401);
    assert.equal(answer.headers.get("content-type"), "application/problem+json");
    const body = await answer.json();
    assert.equal(body.type, "https://balcao.app/erros/unauthenticated");
    assert.match(body.detail, /revogada/);
  });
});
