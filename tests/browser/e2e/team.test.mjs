// Flow 2 of the accounts issue, in a real browser against the real server: an owner invites
// operators at /painel/criar-conta-extra; each opens the invitation link from the e-mail, signs in
// (Dora, who already has an account) or signs up (Bruno, who has none), and lands in the owner's
// account. There the operator sees only what the role allows: they create a QR code and see their
// own codes but not the owner's, and /painel/contas-extras shows the role message (the API
// answers 403).

import assert from "node:assert/strict";
import { after, before, describe } from "node:test";

import { linkTo, startStack, stepsOf, uniqueEmail, waitForPath } from "./harness.mjs";

/** Signs up on /criar-conta; the new account lands on the welcome guide. */
async function signUp(page, { name, email, password }) {
  await page.getByLabel("Seu nome", { exact: true }).fill(name);
  await page.getByLabel("E-mail", { exact: true }).fill(email);
  await page.getByLabel("Senha", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Criar conta", exact: true }).click();
}

/**
 * From /painel/qrcodes, opens /painel/criar-qrcode, fills and sends its form, waits for the
 * confirmation, and comes back to the list.
 */
async function createQrCode(page, { pixKey, merchantName, merchantCity, amount, description }) {
  await page.getByRole("link", { name: "Criar QR code", exact: true }).click();
  await waitForPath(page, "/painel/criar-qrcode");
  const form = page.getByRole("form", { name: "Criar QR code" });
  await form.getByLabel("Chave Pix", { exact: true }).fill(pixKey);
  await form.getByLabel("Nome de quem recebe", { exact: true }).fill(merchantName);
  await form.getByLabel("Cidade", { exact: true }).fill(merchantCity);
  await form.getByLabel("Valor (opcional)", { exact: true }).fill(amount);
  await form.getByLabel("Descrição (opcional)", { exact: true }).fill(description);
  await form.getByRole("button", { name: "Criar QR code" }).click();
  await form.getByRole("status").filter({ hasText: "QR code criado" }).waitFor();
  await page.getByRole("link", { name: "Ver os QR codes desta conta" }).click();
  await waitForPath(page, "/painel/qrcodes");
}

/** The screen /painel/qrcodes (its list). */
function qrCodeList(page) {
  return page.getByRole("region", { name: "QR codes", exact: true });
}

function panelNav(page) {
  return page.getByRole("navigation", { name: "Painel" });
}

/** The invitation link e-mailed to `email`, checked to point back at this server. */
async function invitationLink(stack, email) {
  const message = await stack.sink.waitForMessage(email, {
    where: (m) => m.links.some((link) => new URL(link).pathname === "/painel/convite"),
  });
  const link = linkTo(message, "/painel/convite");
  assert.equal(link.origin, stack.baseUrl, "the link points at the site's own address");
  assert.ok(link.searchParams.get("codigo"), `the link carries the code: ${link.href}`);
  return link;
}

/** Opens the invitation link signed out: the dashboard sends the person to sign in first. */
async function openInvitationSignedOut(page, link) {
  await page.goto(link.href);
  await waitForPath(page, "/entrar");
  assert.equal(
    new URL(page.url()).searchParams.get("continuar"),
    `${link.pathname}${link.search}`,
    "sign-in remembers the invitation",
  );
}

/** The invitation screen once accepted: in the owner's account, as operator. */
async function expectAcceptedAsOperator(page) {
  await waitForPath(page, "/painel/convite");
  const accepted = page.getByRole("status").filter({ hasText: "Agora você faz parte da conta" });
  await accepted.waitFor();
  assert.match(await accepted.innerText(), /Carlos Lima como Operador/);
  // The switcher shows the account in use: the owner's, with the operator's role.
  const inUse = page.getByLabel("Conta em uso", { exact: true });
  assert.match(await inUse.locator("option:checked").innerText(), /\(Operador\)/);
}

describe("um titular convida operadores, que entram na conta dele e só veem o que o papel permite", () => {
  let stack;
  let owner;
  let dora;
  let bruno;
  const owners = { name: "Carlos Lima", email: uniqueEmail("carlos"), password: "Senha-do-Carlos-1" };
  const doras = { name: "Dora Reis", email: uniqueEmail("dora"), password: "Senha-da-Dora-3" };
  const brunos = { name: "Bruno Alves", email: uniqueEmail("bruno"), password: "Senha-do-Bruno-2" };
  const ownerCode = {
    pixKey: "pix@padariadocarlos.com.br",
    merchantName: "Padaria do Carlos",
    merchantCity: "Sao Paulo",
    amount: "12,50",
    description: "Codigo do titular",
  };
  const operatorCode = { ...ownerCode, amount: "7,00", description: "Codigo da operadora" };

  before(async () => {
    stack = await startStack("equipe");
    owner = await stack.newPage("titular");
    dora = await stack.newPage("dora");
    bruno = await stack.newPage("bruno");
  });

  after(async () => {
    await stack?.stop();
  });

  const setup = stepsOf(() => stack);
  const doraStep = stepsOf(() => stack, setup);
  const brunoStep = stepsOf(() => stack, setup);

  describe("o titular cria um QR code e convida dois operadores", () => {
    setup("the owner signs up", async () => {
      await owner.goto("/criar-conta");
      await signUp(owner, owners);
      await waitForPath(owner, "/painel/boas-vindas");
    });

    setup("a person who already has an account (Dora) signs up and signs out", async () => {
      await dora.goto("/criar-conta");
      await signUp(dora, doras);
      await waitForPath(dora, "/painel/boas-vindas");
      await dora.getByRole("button", { name: "Sair", exact: true }).click();
      await waitForPath(dora, "/entrar");
    });

    setup("the owner creates a QR code in /painel/qrcodes", async () => {
      await panelNav(owner).getByRole("link", { name: "QR codes" }).click();
      await waitForPath(owner, "/painel/qrcodes");
      await createQrCode(owner, ownerCode);
      await qrCodeList(owner).getByRole("listitem").filter({ hasText: ownerCode.description }).waitFor();
    });

    setup("the owner invites Dora and Bruno as operators at /painel/criar-conta-extra", async () => {
      await panelNav(owner).getByRole("link", { name: "Contas extras" }).click();
      await waitForPath(owner, "/painel/contas-extras");
      await owner.getByText("Nenhuma conta extra por enquanto.").waitFor();
      await owner.getByRole("link", { name: "Criar conta extra" }).click();
      await waitForPath(owner, "/painel/criar-conta-extra");
      for (const person of [doras, brunos]) {
        await owner.getByLabel("E-mail da pessoa", { exact: true }).fill(person.email);
        await owner.getByLabel("Papel", { exact: true }).selectOption({ label: "Operador" });
        await owner.getByRole("button", { name: "Enviar convite" }).click();
        await owner
          .getByRole("status")
          .filter({ hasText: `Convite enviado para ${person.email}, como Operador.` })
          .waitFor();
      }

      await owner.getByRole("link", { name: "Ver contas extras" }).click();
      await waitForPath(owner, "/painel/contas-extras");
      for (const person of [doras, brunos]) {
        const row = owner.getByRole("row").filter({ hasText: person.email });
        await row.getByRole("cell", { name: "Operador", exact: true }).waitFor();
        await row.getByRole("cell", { name: "Convite enviado", exact: true }).waitFor();
      }
    });
  });

  describe("Dora abre o convite, entra com a conta que já tem e só vê o que o papel de operadora permite", () => {
    doraStep("the e-mailed link asks her to sign in, and signing in accepts the invitation", async () => {
      const link = await invitationLink(stack, doras.email);
      await openInvitationSignedOut(dora, link);
      await dora.getByLabel("E-mail", { exact: true }).fill(doras.email);
      await dora.getByLabel("Senha", { exact: true }).fill(doras.password);
      await dora.getByRole("button", { name: "Entrar", exact: true }).click();
      await expectAcceptedAsOperator(dora);
    });

    doraStep("she creates a QR code and sees her own codes but not the owner's", async () => {
      await dora.getByRole("link", { name: "Ir para os QR codes" }).click();
      await waitForPath(dora, "/painel/qrcodes");
      await dora.getByText("seu papel: Operador").waitFor();
      await createQrCode(dora, operatorCode);
      const list = qrCodeList(dora);
      await list.getByRole("listitem").filter({ hasText: operatorCode.description }).waitFor();
      assert.equal(
        await list.getByRole("listitem").filter({ hasText: ownerCode.description }).count(),
        0,
        "the owner's code is not listed",
      );
      assert.equal(await list.getByRole("listitem").count(), 1, "only her own code is listed");
    });

    doraStep(
      "her menu has no extra accounts, and /painel/contas-extras shows the role message (the API answers 403)",
      async () => {
        await panelNav(dora).getByRole("link", { name: "QR codes" }).waitFor();
        assert.equal(
          await panelNav(dora).getByRole("link", { name: "Contas extras" }).count(),
          0,
          "no 'Contas extras' in an operator's menu",
        );

        // Typed into the address bar: a full load stays in the account she works in (the owner's,
        // remembered on this device since she joined it), and the screen asks the server again.
        const ownerAccountId = await dora
          .getByLabel("Conta em uso", { exact: true })
          .locator("option", { hasText: "(Operador)" })
          .getAttribute("value");
        const answer = dora.waitForResponse(
          (response) =>
            new URL(response.url()).pathname === `/api/accounts/${ownerAccountId}/members` &&
            response.request().method() === "GET",
        );
        await dora.goto("/painel/contas-extras");
        await dora.getByRole("heading", { level: 1, name: "Contas extras" }).waitFor();
        const inUse = dora.getByLabel("Conta em uso", { exact: true });
        assert.match(await inUse.locator("option:checked").innerText(), /\(Operador\)/, "still in the owner's account");
        assert.equal((await answer).status(), 403, "GET /api/accounts/{owner}/members answers 403 to an operator");
        await dora.getByText("Seu papel nesta conta não permite ver as contas extras.").waitFor();
        assert.equal(await dora.getByRole("table").count(), 0, "no list of extra accounts");
        assert.equal(await dora.getByRole("link", { name: "Criar conta extra" }).count(), 0, "no invitation link");
      },
    );

    // Issue 32, item 8: she used to see the whole invitation form and learn from a 403 after
    // sending it that her role cannot invite.
    doraStep("/painel/criar-conta-extra tells her, at both sizes, that only the owner invites: no form", async () => {
      const previous = dora.viewportSize();
      for (const size of [
        { width: 390, height: 844 },
        { width: 1366, height: 900 },
      ]) {
        await dora.setViewportSize(size);
        await dora.goto("/painel/criar-conta-extra");
        await dora.getByRole("heading", { level: 1, name: "Criar conta extra" }).waitFor();
        await dora
          .getByText("Só o titular desta conta convida contas extras. Você está nela como operador:")
          .waitFor();
        assert.equal(await dora.getByRole("form", { name: "Convidar conta extra" }).count(), 0, "no invitation form");
        assert.equal(await dora.getByLabel("E-mail da pessoa").count(), 0, "no e-mail field");
      }
      if (previous) await dora.setViewportSize(previous);
    });

    doraStep("the owner sees both codes and Dora as an active extra account", async () => {
      await owner.reload();
      await owner
        .getByRole("row")
        .filter({ hasText: doras.email })
        .getByRole("cell", { name: "Ativa", exact: true })
        .waitFor();
      await panelNav(owner).getByRole("link", { name: "QR codes" }).click();
      await waitForPath(owner, "/painel/qrcodes");
      const list = qrCodeList(owner);
      await list.getByRole("listitem").filter({ hasText: operatorCode.description }).waitFor();
      await list.getByRole("listitem").filter({ hasText: ownerCode.description }).waitFor();
    });
  });

  describe("Bruno abre o convite, cria a conta e cai na conta do titular como operador", () => {
    brunoStep("the e-mailed link asks him to sign in", async () => {
      const link = await invitationLink(stack, brunos.email);
      await openInvitationSignedOut(bruno, link);
    });

    brunoStep("he creates his account from there and the invitation is accepted", async () => {
      await bruno.getByRole("link", { name: "Criar conta", exact: true }).click();
      await waitForPath(bruno, "/criar-conta");
      await signUp(bruno, brunos);
      await expectAcceptedAsOperator(bruno);
    });

    brunoStep("he sees his own codes only (none yet), not the owner's", async () => {
      await bruno.getByRole("link", { name: "Ir para os QR codes" }).click();
      await waitForPath(bruno, "/painel/qrcodes");
      await bruno.getByText("seu papel: Operador").waitFor();
      await qrCodeList(bruno).getByText("Nenhum QR code ainda.").waitFor();
    });
  });
});
