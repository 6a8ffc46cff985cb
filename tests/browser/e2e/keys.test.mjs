// Issue 10 in a real browser against the real server: the welcome guide's first step ends on
// /painel/chaves, where the owner registers a CPF key through the form (masked as typed) and sees
// it listed as the default; the same key twice is refused under the field. Then the workspace
// case: an operator who joined the owner's account reloads the page and is still in it, and the
// code they make lands in the owner's account.

import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe } from "node:test";

import { linkTo, resultsDir, startStack, stepsOf, uniqueEmail, waitForPath } from "./harness.mjs";

async function signUp(page, { name, email, password }) {
  await page.getByLabel("Seu nome", { exact: true }).fill(name);
  await page.getByLabel("E-mail", { exact: true }).fill(email);
  await page.getByLabel("Senha", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Criar conta", exact: true }).click();
}

describe("chaves Pix e a conta em uso", () => {
  let stack;
  let owner;
  let operator;
  const owners = { name: "Lia Prado", email: uniqueEmail("lia"), password: "Senha-da-Lia-1" };
  const operators = { name: "Caio Reis", email: uniqueEmail("caio"), password: "Senha-do-Caio-2" };

  before(async () => {
    stack = await startStack("chaves");
    owner = await stack.newPage("titular");
    operator = await stack.newPage("operador");
  });

  after(async () => {
    await stack?.stop();
  });

  const step = stepsOf(() => stack);

  step("the welcome guide's first step leads to /painel/chaves", async () => {
    await owner.goto("/criar-conta");
    await signUp(owner, owners);
    await waitForPath(owner, "/painel/boas-vindas");
    await owner.getByRole("heading", { name: "Cadastre sua chave Pix" }).waitFor();
    await owner.getByRole("link", { name: "Cadastrar chave Pix" }).click();
    await waitForPath(owner, "/painel/chaves");
    await owner.getByRole("heading", { level: 1, name: "Chaves Pix" }).waitFor();
    await owner.getByText("Nenhuma chave cadastrada ainda.").waitFor();
  });

  step("a CPF key registered through the form is listed, masked, as the default", async () => {
    const form = owner.getByRole("form", { name: "Cadastrar chave Pix" });
    await form.getByLabel("Tipo da chave", { exact: true }).selectOption({ label: "CPF" });
    await form.getByLabel("Chave Pix", { exact: true }).pressSequentially("52998224725");
    assert.equal(await form.getByLabel("Chave Pix", { exact: true }).inputValue(), "529.982.247-25", "masked as typed");
    await form.getByLabel("Nome do titular, como o banco mostra", { exact: true }).fill("Lia Prado");
    await form.getByLabel("Apelido (opcional)", { exact: true }).fill("Caixa da loja");
    await form.getByRole("button", { name: "Cadastrar chave" }).click();
    await form.getByRole("status").filter({ hasText: "é a chave padrão desta conta" }).waitFor();
    const card = owner.getByRole("listitem").filter({ hasText: "Caixa da loja" });
    await card.getByText("529.982.247-25").waitFor();
    await card.getByText("Padrão", { exact: true }).waitFor();
    await card.getByText("Lia Prado").waitFor();
  });

  step("the same key again is refused under the key field, in Portuguese", async () => {
    const form = owner.getByRole("form", { name: "Cadastrar chave Pix" });
    await form.getByLabel("Tipo da chave", { exact: true }).selectOption({ label: "Descobrir pelo que eu digitar" });
    await form.getByLabel("Chave Pix", { exact: true }).fill("529.982.247-25");
    await form.getByLabel("Nome do titular, como o banco mostra", { exact: true }).fill("Lia Prado");
    await form.getByRole("button", { name: "Cadastrar chave" }).click();
    await form.getByText("Esta chave Pix já está cadastrada nesta conta.").waitFor();
  });

  step("screenshots of /painel/chaves on a phone and a laptop", async () => {
    await owner.goto("/painel/chaves");
    await owner.getByText("529.982.247-25").waitFor();
    // The keys are cards, as the QR codes are: no list bullet beside each, no indent on a phone.
    const list = owner.locator("ul.key-list");
    assert.equal(await list.evaluate((ul) => getComputedStyle(ul).listStyleType), "none");
    assert.equal(await list.evaluate((ul) => getComputedStyle(ul).paddingLeft), "0px");
    for (const [width, height] of [
      [390, 844],
      [1366, 900],
    ]) {
      await owner.setViewportSize({ width, height });
      await owner.screenshot({ path: join(resultsDir, `chaves-${width}x${height}.png`), fullPage: true });
    }
  });

  step("an operator who joined the owner's account stays in it after a reload, and creates there", async () => {
    await owner.goto("/painel/criar-conta-extra");
    await owner.getByLabel("E-mail da pessoa", { exact: true }).fill(operators.email);
    await owner.getByLabel("Papel", { exact: true }).selectOption({ label: "Operador" });
    await owner.getByRole("button", { name: "Enviar convite" }).click();
    await owner.getByRole("status").filter({ hasText: `Convite enviado para ${operators.email}` }).waitFor();

    const message = await stack.sink.waitForMessage(operators.email, {
      where: (m) => m.links.some((link) => new URL(link).pathname === "/painel/convite"),
    });
    await operator.goto(linkTo(message, "/painel/convite").href);
    await waitForPath(operator, "/entrar");
    await operator.getByRole("link", { name: "Criar conta", exact: true }).click();
    await waitForPath(operator, "/criar-conta");
    await signUp(operator, operators);
    await waitForPath(operator, "/painel/convite");
    await operator.getByRole("status").filter({ hasText: "Agora você faz parte da conta" }).waitFor();

    await operator.goto("/painel/criar-qrcode");
    await operator.reload();
    const inUse = operator.getByLabel("Conta em uso", { exact: true });
    assert.match(await inUse.locator("option:checked").innerText(), /\(Operador\)/, "still in the owner's account");
    await operator.getByText("seu papel: Operador").waitFor();

    // The owner's default key is chosen, with its holder name as the name in the code.
    const form = operator.getByRole("form", { name: "Criar QR code" });
    const picker = form.getByRole("combobox", { name: "Chave Pix", exact: true });
    await operator.waitForFunction(
      (select) => select.selectedOptions[0]?.textContent?.startsWith("Caixa da loja"),
      await picker.elementHandle(),
    );
    assert.equal(await form.getByLabel("Nome de quem recebe", { exact: true }).inputValue(), "Lia Prado");
    await form.getByLabel("Cidade", { exact: true }).fill("Recife");
    await form.getByLabel("Descrição (opcional)", { exact: true }).fill("Feito pelo operador");
    await form.getByRole("button", { name: "Criar QR code" }).click();
    await form.getByRole("status").filter({ hasText: "QR code criado" }).waitFor();

    await owner.goto("/painel/qrcodes");
    await owner
      .getByRole("region", { name: "QR codes", exact: true })
      .getByRole("listitem")
      .filter({ hasText: "Feito pelo operador" })
      .waitFor();
  });
});
