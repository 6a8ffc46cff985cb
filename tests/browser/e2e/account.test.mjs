// Flow 1 of the accounts issue, in a real browser against the real server: sign up → confirm the
// e-mail through the link the server mailed → welcome guide → sign out → sign in → recover the
// password through the mailed link → the old password is refused, the new one signs in.

import assert from "node:assert/strict";
import { after, before, describe } from "node:test";

import { linkTo, signUpThroughForm, startStack, stepsOf, uniqueEmail, waitForPath } from "./harness.mjs";

describe("uma pessoa cria a conta, confirma o e-mail, sai, entra e recupera a senha", () => {
  let stack;
  let page;
  const step = stepsOf(() => stack);
  const email = uniqueEmail("ana");
  const firstPassword = "Primeira-senha-42";
  const newPassword = "Nova-senha-forte-77";

  before(async () => {
    stack = await startStack("conta");
    page = await stack.newPage("ana");
  });

  after(async () => {
    await stack?.stop();
  });

  step("a visitor signs up and lands on the welcome guide", async () => {
    await signUpThroughForm(page, { name: "Ana Souza", email: email, password: firstPassword });
    await page.getByRole("heading", { level: 1, name: "Boas-vindas ao Balcão" }).waitFor();
  });

  step("the dashboard asks the new account to confirm its e-mail", async () => {
    await page.getByRole("link", { name: "Ir para o painel" }).click();
    await waitForPath(page, "/painel");
    await page.getByRole("heading", { level: 1, name: "Olá, Ana" }).waitFor();
    await page.getByText("Confirme seu e-mail.").waitFor();
  });

  step("the link in the confirmation e-mail confirms the address", async () => {
    const message = await stack.sink.waitForMessage(email, {
      where: (m) => m.links.some((link) => new URL(link).pathname === "/verificar-email"),
    });
    const link = linkTo(message, "/verificar-email");
    assert.equal(link.origin, stack.baseUrl, "the link points at the site's own address");
    // A full page load: the session comes back from the refresh cookie alone.
    await page.goto(link.href);
    await page.getByText("E-mail confirmado. Obrigado!").waitFor();
    await page.getByRole("link", { name: "Ir para o painel" }).click();
    await waitForPath(page, "/painel");
    await page.getByRole("heading", { level: 1, name: "Olá, Ana" }).waitFor();
    assert.equal(await page.getByText("Confirme seu e-mail.").count(), 0, "no reminder once the e-mail is confirmed");
  });

  step("the welcome guide is still at /painel/boas-vindas", async () => {
    await page.getByRole("link", { name: "Primeiros passos" }).click();
    await waitForPath(page, "/painel/boas-vindas");
    await page.getByRole("heading", { level: 1, name: "Boas-vindas ao Balcão" }).waitFor();
  });

  step("signing out ends the session on the server", async () => {
    await page.getByRole("button", { name: "Sair", exact: true }).click();
    await waitForPath(page, "/entrar");
    await page.getByText("Você saiu da sua conta.").waitFor();
    // A fresh load must not restore the session: the refresh cookie was revoked.
    await page.goto("/painel");
    await waitForPath(page, "/entrar");
    await page.getByRole("button", { name: "Entrar", exact: true }).waitFor();
  });

  step("signing in with the e-mail and password opens the dashboard", async () => {
    await page.getByLabel("E-mail", { exact: true }).fill(email);
    await page.getByLabel("Senha", { exact: true }).fill(firstPassword);
    await page.getByRole("button", { name: "Entrar", exact: true }).click();
    await waitForPath(page, "/painel");
    await page.getByRole("heading", { level: 1, name: "Olá, Ana" }).waitFor();
  });

  step("a forgotten password is replaced through the link in the recovery e-mail", async () => {
    await page.getByRole("button", { name: "Sair", exact: true }).click();
    await waitForPath(page, "/entrar");
    await page.getByRole("link", { name: "Esqueci minha senha" }).click();
    await waitForPath(page, "/recuperar-senha");
    await page.getByLabel("E-mail", { exact: true }).fill(email);
    await page.getByRole("button", { name: "Enviar link" }).click();
    await page.getByText("Se houver uma conta com este e-mail, enviaremos as instruções em instantes.").waitFor();

    const message = await stack.sink.waitForMessage(email, {
      where: (m) => m.links.some((link) => new URL(link).pathname === "/redefinir-senha"),
    });
    const link = linkTo(message, "/redefinir-senha");
    assert.equal(link.origin, stack.baseUrl, "the link points at the site's own address");
    await page.goto(link.href);
    await page.getByLabel("Senha nova", { exact: true }).fill(newPassword);
    await page.getByRole("button", { name: "Salvar senha nova" }).click();
    await page.getByText("Senha alterada. Agora é só entrar com a senha nova.").waitFor();
    await page.getByRole("link", { name: "Entrar", exact: true }).click();
    await waitForPath(page, "/entrar");
  });

  step("the old password is refused and the new one signs in", async () => {
    await page.getByLabel("E-mail", { exact: true }).fill(email);
    await page.getByLabel("Senha", { exact: true }).fill(firstPassword);
    await page.getByRole("button", { name: "Entrar", exact: true }).click();
    await page.getByRole("alert").filter({ hasText: "E-mail ou senha incorretos." }).waitFor();
    assert.equal(new URL(page.url()).pathname, "/entrar");

    await page.getByLabel("Senha", { exact: true }).fill(newPassword);
    await page.getByRole("button", { name: "Entrar", exact: true }).click();
    await waitForPath(page, "/painel");
    await page.getByRole("heading", { level: 1, name: "Olá, Ana" }).waitFor();
  });
});
