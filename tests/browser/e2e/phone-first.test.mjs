// Issue 13's dashboard items, in a real browser against the real server: "Dúvidas" stays inside the
// dashboard, the desktop has no dead "Menu" button, an invitation link says what it is on the
// sign-in and sign-up pages, a spent recovery link says so on arrival, and deleting the account
// asks a second time and ends on a page saying the account is gone.
//
// E2E_SHOTS_DIR (optional): also save a screenshot of each screen there, at 390×844 and 1366×900.

import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe } from "node:test";

import { linkTo, signUpThroughForm, startStack, stepsOf, uniqueEmail, waitForPath } from "./harness.mjs";

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
    await page.screenshot({ path: join(dir, `${name}--${label}.png`) });
  }
  if (before) await page.setViewportSize(before);
}

/** Whether the element's box lies inside the viewport (the next step is in view). */
async function inView(locator) {
  return locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    return box.top >= 0 && box.bottom <= window.innerHeight && box.left >= 0 && box.right <= window.innerWidth;
  });
}

describe("telefone primeiro: dúvidas no painel, convites e links explicados, exclusão confirmada", () => {
  let stack;
  let owner;
  let guest;
  const step = stepsOf(() => stack);
  const owners = { name: "Padaria da Lia", email: uniqueEmail("lia"), password: "Senha-da-Lia-1" };
  const newPassword = "Outra-senha-da-Lia-2";
  const guestEmail = uniqueEmail("convidado");

  before(async () => {
    stack = await startStack("telefone");
    owner = await stack.newPage("titular");
    guest = await stack.newPage("convidado");
  });

  after(async () => {
    await stack?.stop();
  });

  step("the owner signs up", async () => {
    await signUpThroughForm(owner, { name: owners.name, email: owners.email, password: owners.password });
  });

  step("on a wide screen there is no Menu button; on a phone it opens the menu", async () => {
    await owner.setViewportSize(DESKTOP);
    const toggle = owner.getByRole("button", { name: "Menu", exact: true });
    const nav = owner.getByRole("navigation", { name: "Painel" });
    assert.equal(await toggle.isVisible(), false, "no Menu button at 1366 px: the menu is always there");
    assert.equal(await nav.isVisible(), true);

    await owner.setViewportSize(PHONE);
    assert.equal(await nav.isVisible(), false, "the menu is folded on a phone");
    await toggle.click();
    await nav.getByRole("link", { name: "Dúvidas" }).waitFor();
    await shots(owner, "menu-aberto");
    await owner.setViewportSize(DESKTOP);
  });

  step("Dúvidas opens inside the dashboard, still signed in", async () => {
    const nav = owner.getByRole("navigation", { name: "Painel" });
    await nav.getByRole("link", { name: "Dúvidas" }).click();
    await waitForPath(owner, "/painel/duvidas");
    await owner.getByRole("heading", { level: 2, name: "O que é o Balcão?" }).waitFor();
    assert.equal(await nav.getByRole("link", { name: "Dúvidas" }).getAttribute("aria-current"), "page");
    assert.equal(await owner.getByRole("button", { name: "Sair", exact: true }).isVisible(), true);
    assert.equal(await owner.getByRole("link", { name: /Entrar/ }).count(), 0, "no public 'Entrar' header");
    await shots(owner, "duvidas-no-painel");
  });

  step("the public pages greet a signed-in visitor with Painel instead of Entrar and Criar conta", async () => {
    await owner.setViewportSize(PHONE);
    await owner.goto("/");
    const header = owner.getByRole("navigation", { name: "Principal" });
    const painel = header.getByRole("link", { name: "Painel", exact: true });
    await painel.waitFor();
    assert.equal(await header.getByRole("link", { name: "Entrar", exact: true }).isVisible(), false);
    assert.equal(await header.getByRole("link", { name: "Criar conta", exact: true }).isVisible(), false);
    await owner.getByRole("main").getByRole("link", { name: "Abrir o painel", exact: true }).waitFor();
    assert.equal(await owner.getByRole("main").getByRole("link", { name: "Criar conta", exact: true }).isVisible(), false);
    await shots(owner, "inicio-com-sessao");
    await painel.click();
    await waitForPath(owner, "/painel");
    await owner.setViewportSize(DESKTOP);
  });

  step("an invitation link says as what, not who invites, on /entrar and /criar-conta", async () => {
    await owner.getByRole("navigation", { name: "Painel" }).getByRole("link", { name: "Contas extras" }).click();
    await owner.getByRole("link", { name: "Criar conta extra" }).click();
    await waitForPath(owner, "/painel/criar-conta-extra");
    await owner.getByLabel("E-mail da pessoa", { exact: true }).fill(guestEmail);
    await owner.getByLabel("Papel", { exact: true }).selectOption({ label: "Operador" });
    await owner.getByRole("button", { name: "Enviar convite" }).click();
    await owner.getByRole("status").filter({ hasText: `Convite enviado para ${guestEmail}` }).waitFor();

    const message = await stack.sink.waitForMessage(guestEmail, {
      where: (m) => m.links.some((link) => new URL(link).pathname === "/painel/convite"),
    });
    await guest.setViewportSize(PHONE);
    await guest.goto(linkTo(message, "/painel/convite").href);
    await waitForPath(guest, "/entrar");
    // The guest holds the link but has not shown they are the invited address: the role, not who invites.
    const notice = guest.getByText(/Você foi convidado para uma conta/);
    await notice.waitFor();
    assert.equal(
      await notice.innerText(),
      "Você foi convidado para uma conta do Balcão como operador. Entre ou crie sua conta para aceitar.",
    );
    assert.ok(await inView(notice), "the invitation is said in the first screen of a phone");
    await shots(guest, "convite-entrar");

    await guest.getByRole("link", { name: "Criar conta", exact: true }).click();
    await waitForPath(guest, "/criar-conta");
    await guest.getByText(/Você foi convidado para uma conta do Balcão como operador\. Crie sua conta \(ou entre, se já tem uma\) para aceitar\./).waitFor();
    await shots(guest, "convite-criar-conta");
  });

  step("a recovery link already used says so on arrival, without a form", async () => {
    await guest.goto("/recuperar-senha");
    await guest.getByLabel("E-mail", { exact: true }).fill(owners.email);
    await guest.getByRole("button", { name: "Enviar link" }).click();
    const message = await stack.sink.waitForMessage(owners.email, {
      where: (m) => m.links.some((link) => new URL(link).pathname === "/redefinir-senha"),
    });
    const link = linkTo(message, "/redefinir-senha");
    await guest.goto(link.href);
    await guest.getByLabel("Senha nova", { exact: true }).fill(newPassword);
    await guest.getByRole("button", { name: "Salvar senha nova" }).click();
    await guest.getByText("Senha alterada. Agora é só entrar com a senha nova.").waitFor();

    await guest.goto(link.href);
    const alert = guest.getByRole("alert").filter({ hasText: "Este link expirou ou já foi usado." });
    await alert.waitFor();
    assert.equal(await guest.getByLabel("Senha nova", { exact: true }).count(), 0, "no form for a spent link");
    await guest.getByRole("link", { name: "Pedir um novo link" }).waitFor();
    await shots(guest, "link-de-recuperacao-usado");
  });

  step("deleting the account asks a second time, naming it, and ends on a page saying it is gone", async () => {
    // The password changed above: this browser's session ended with it.
    await owner.goto("/entrar");
    await owner.getByLabel("E-mail", { exact: true }).fill(owners.email);
    await owner.getByLabel("Senha", { exact: true }).fill(newPassword);
    await owner.getByRole("button", { name: "Entrar", exact: true }).click();
    await waitForPath(owner, "/painel");
    await owner.setViewportSize(PHONE);
    await owner.goto("/painel/configuracoes");
    const deletion = owner.getByRole("form", { name: "Excluir conta" });
    await deletion.getByLabel("Sua senha", { exact: true }).fill(newPassword);
    await deletion.getByRole("button", { name: "Excluir minha conta" }).click();

    const confirm = deletion.getByRole("button", { name: "Sim, excluir minha conta para sempre" });
    await confirm.waitFor();
    await deletion.getByText(`Excluir a conta ${owners.email} para sempre?`).waitFor();
    assert.ok(await confirm.evaluate((element) => element === document.activeElement), "the yes is focused");
    assert.ok(await inView(confirm), "the second step is on screen");
    await shots(owner, "excluir-conta-confirmacao");

    await confirm.click();
    await waitForPath(owner, "/painel/conta-excluida");
    await owner.getByRole("heading", { level: 1, name: "Conta excluída" }).waitFor();
    await owner.getByText(`A conta ${owners.email} foi excluída.`).waitFor();
    await shots(owner, "conta-excluida");

    // The public header no longer offers Painel: the hint went with the session.
    await owner.goto("/");
    const header = owner.getByRole("navigation", { name: "Principal" });
    await header.getByRole("link", { name: "Entrar", exact: true }).waitFor();
    assert.equal(await header.getByRole("link", { name: "Painel", exact: true }).isVisible(), false);

    // Really gone: the password no longer signs in.
    await owner.goto("/entrar");
    await owner.getByLabel("E-mail", { exact: true }).fill(owners.email);
    await owner.getByLabel("Senha", { exact: true }).fill(newPassword);
    await owner.getByRole("button", { name: "Entrar", exact: true }).click();
    await owner.getByRole("alert").filter({ hasText: "E-mail ou senha incorretos." }).waitFor();
  });
});
