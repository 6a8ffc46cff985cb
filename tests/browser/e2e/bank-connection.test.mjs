// Issue 33 in a real browser against the real server and the API Pix bank simulator (a process
// of its own, over real mutual TLS): an owner registers the key the bank holds, opens "Conectar
// banco" from the key's card, tries a wrong secret (told under the field, nothing kept) and an
// expired certificate, then connects with the bank's .p12: the webhook is registered at the bank,
// a connection test is run, and the key's card says the bank is connected. Every view is checked
// for layout at 390×844 and 1366×900. Then a Pix the bank reports is refunded from the payment's
// detail: the request reaches the bank, which settles it, and the detail says so. Last, a charge
// with a validity is made through the bank: its payer page counts down, and says "Pagamento
// recebido" by itself when the bank reports the payment.
//
// E2E_SHOTS_DIR (optional): the form, the refusal, the connection, the refund, the charge forms,
// the charges' payer pages and the dashboard home warning of a certificate ending, at 390×844 and
// 1366×900.

import assert from "node:assert/strict";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe } from "node:test";

import {
  PHONE_AND_LAPTOP,
  registerFirstKey,
  screenshotsAtBothSizes,
  signUpThroughForm,
  startBankSimulator,
  startStack,
  stepsOf,
  uniqueEmail,
} from "./harness.mjs";
import { layoutProblems } from "./layout.mjs";

/** Fails listing every layout problem of the page as it is, at both screens. */
async function fitsBothScreens(page, what) {
  const found = [];
  for (const screen of PHONE_AND_LAPTOP) {
    await page.setViewportSize(screen);
    // The transactions chart redraws for the new width a moment after the resize (a
    // ResizeObserver): look again before counting what a resize left half-drawn.
    let problems = await layoutProblems(page);
    for (let look = 0; look < 5 && problems.length > 0; look++) {
      await page.waitForTimeout(400);
      problems = await layoutProblems(page);
    }
    for (const problem of problems) found.push(`${what} at ${screen.width}×${screen.height}: ${problem}`);
  }
  assert.deepEqual(found, [], found.join("\n"));
}

describe("a key's bank is connected on /painel/chaves/{id}/banco", () => {
  let bank;
  let stack;
  let owner;
  let files;
  const step = stepsOf(() => stack);

  before(async () => {
    bank = await startBankSimulator();
    stack = await startStack("banco", {
      env: { BALCAO_BANK_API_ORIGIN: bank.origin, BALCAO_BANK_EXTRA_ROOT_PEM: bank.serverCaPem },
    });
    owner = await stack.newPage("titular");
    files = await mkdtemp(join(tmpdir(), "balcao-banco-"));
    await writeFile(join(files, "homologacao.p12"), Buffer.from(bank.clientP12Base64, "base64"));
    await writeFile(join(files, "vencido.p12"), Buffer.from(bank.expiredP12Base64, "base64"));
    await writeFile(join(files, "terminando.p12"), Buffer.from(bank.endingP12Base64, "base64"));
  });

  after(async () => {
    await stack?.stop();
    await bank?.stop();
  });

  step("the owner registers the key the bank holds and opens Conectar banco from its card", async () => {
    await signUpThroughForm(owner, { name: "Rita Lopes", email: uniqueEmail("rita"), password: "Senha-da-Rita-1" });
    await registerFirstKey(owner, { key: bank.key, holder: "Rita Lopes" });
    const card = owner.getByRole("listitem").filter({ hasText: bank.key });
    await card.getByText("Receba os Pix desta chave sem copiar nada").waitFor();
    await card.getByRole("link", { name: /Conectar o banco da chave/ }).click();
    await owner.getByRole("heading", { level: 1, name: "Conectar banco" }).waitFor();
    await owner.getByRole("form", { name: "Conectar banco" }).waitFor();
    await fitsBothScreens(owner, "the empty form");
    await screenshotsAtBothSizes(owner, "banco-formulario");
  });

  step("a wrong secret is told under the secret, and an expired certificate under the file", async () => {
    const form = owner.getByRole("form", { name: "Conectar banco" });
    await form.getByLabel("Banco", { exact: true }).selectOption({ label: "Sicredi" });
    await form.getByLabel(/Homologação/).check();
    await form.getByLabel("Client ID", { exact: true }).fill(bank.clientId);
    await form.getByLabel("Client Secret", { exact: true }).fill("segredo-errado");
    await form.getByLabel("Certificado", { exact: true }).setInputFiles(join(files, "homologacao.p12"));
    await form.getByRole("button", { name: "Conectar e testar" }).click();
    await form.getByText(/O banco recusou o client id ou o client secret/).waitFor();
    await fitsBothScreens(owner, "the refusal");
    await screenshotsAtBothSizes(owner, "banco-segredo-errado");

    await form.getByLabel("Client Secret", { exact: true }).fill(bank.clientSecret);
    await form.getByLabel("Certificado", { exact: true }).setInputFiles(join(files, "vencido.p12"));
    await form.getByRole("button", { name: "Conectar e testar" }).click();
    await form.getByText(/Este certificado venceu em/).waitFor();
  });

  step("the bank's .p12 connects: webhook registered, a test run, the card says so", async () => {
    const form = owner.getByRole("form", { name: "Conectar banco" });
    await form.getByLabel("Client Secret", { exact: true }).fill(bank.clientSecret);
    await form.getByLabel("Certificado", { exact: true }).setInputFiles(join(files, "homologacao.p12"));
    await form.getByRole("button", { name: "Conectar e testar" }).click();
    await owner.getByText(/Conectado ao Sicredi\. Os Pix recebidos na chave/).waitFor();
    await owner.getByText(/Registrado no banco em/).waitFor();
    await owner.getByText("Sicredi (homologação)").waitFor();
    await owner.getByRole("button", { name: "Testar conexão" }).click();
    await owner.getByText("Teste feito: veja o resultado em “Último teste”.").waitFor();
    await owner.getByText(/Tudo certo em/).waitFor();
    await fitsBothScreens(owner, "the connection");
    await screenshotsAtBothSizes(owner, "banco-conectado");

    await owner.getByRole("link", { name: "Voltar às chaves" }).click();
    const card = owner.getByRole("listitem").filter({ hasText: bank.key });
    await card.getByText("Banco conectado: Sicredi (homologação).").waitFor();
    await fitsBothScreens(owner, "the keys");
    await screenshotsAtBothSizes(owner, "chaves-banco-conectado");
  });

  step("a Pix the bank reports is refunded from its detail, and the bank's settlement shows", async () => {
    await bank.receivePix(2500, "PEDIDO1");
    await owner.goto("/painel/transacoes");
    await owner.getByRole("button", { name: /^Detalhes do pagamento de R\$ 25,00/ }).click();
    const panel = owner.getByRole("region", { name: "Pagamento de R$ 25,00" });
    await panel.getByRole("button", { name: "Devolver pagamento" }).click();
    const form = panel.getByRole("form", { name: "Devolver pagamento" });
    const amount = form.getByLabel("Valor a devolver");
    assert.equal(await amount.inputValue(), "25,00", "the whole amount is offered");
    await amount.fill("10,00");
    await form.getByLabel("Mensagem ao pagador (opcional)").fill("Troca do pedido");
    await fitsBothScreens(owner, "the refund form");
    await screenshotsAtBothSizes(owner, "transacoes-devolver");
    await form.getByRole("button", { name: "Sim, devolver" }).click();
    await panel.getByText(/O banco (recebeu o pedido|devolveu o valor)/).waitFor();
    await panel.getByText(/R\$ 10,00, devolvida/).waitFor();
    await panel.getByText("Devolução de R$ 10,00 pedida ao banco (“Troca do pedido”).").waitFor();
    // The answer said "processando"; once the bank settled it, the sentence says so too.
    await panel.getByText("O banco devolveu o valor ao pagador.").waitFor();
    await fitsBothScreens(owner, "the refunded payment");
    await screenshotsAtBothSizes(owner, "transacoes-devolvido");
  });

  step("a charge made through the bank counts down on its payer page and shows the payment live", async () => {
    await owner.goto("/painel/chaves");
    const card = owner.getByRole("listitem").filter({ hasText: bank.key });
    await card.getByRole("link", { name: "Ver conexão ou criar cobrança" }).click();
    const form = owner.getByRole("form", { name: "Criar cobrança" });
    await form.getByLabel("Valor").fill("45,90");
    await form.getByLabel("Mensagem para quem paga (opcional)").fill("Pedido 42");
    await form.getByLabel("Cidade").fill("Porto Alegre");
    await form.getByLabel("Validade").selectOption({ label: "15 minutos" });
    await fitsBothScreens(owner, "the charge form");
    await screenshotsAtBothSizes(owner, "banco-cobranca");
    await form.getByRole("button", { name: "Criar cobrança" }).click();
    await owner.getByText(/Cobrança de R\$\s45,90 criada no banco, paga até/).waitFor();
    const href = await owner.getByRole("link", { name: "Abrir a página de pagamento" }).getAttribute("href");
    const id = new URL(href).pathname.split("/").pop();

    await owner.goto(`/pagamento/${id}`);
    await owner.getByRole("heading", { name: /^Pagar / }).waitFor();
    await owner.getByText(/Pague até .* \(horário de Brasília\)/).waitFor();
    await owner.getByText(/faltam 1[45]:\d\d/).waitFor();
    await fitsBothScreens(owner, "the charge's payer page");
    await screenshotsAtBothSizes(owner, "cobranca-pagina");

    // The charge's txid is its code's id without hyphens (Balcão derives it so).
    await bank.payCharge(id.replaceAll("-", ""));
    await owner.getByRole("heading", { name: "Este QR code já foi pago" }).waitFor();
    await owner.getByText("Pagamento recebido").waitFor();
    await fitsBothScreens(owner, "the paid charge's page");
    await screenshotsAtBothSizes(owner, "cobranca-paga");
  });

  step("an invoice with a due date shows its terms on its payer page and is paid like any code", async () => {
    await owner.goto("/painel/chaves");
    const card = owner.getByRole("listitem").filter({ hasText: bank.key });
    await card.getByRole("link", { name: "Ver conexão ou criar cobrança" }).click();
    await owner.getByRole("button", { name: "Fatura com vencimento" }).click();
    const form = owner.getByRole("form", { name: "Criar cobrança com vencimento" });
    const due = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
    const until = new Date(Date.now() + 8 * 86_400_000).toISOString().slice(0, 10);
    await form.getByLabel("Nome de quem paga").fill("Maria da Silva");
    await form.getByLabel("CPF ou CNPJ de quem paga").fill("123.456.789-09");
    await form.getByLabel("Valor").fill("150,00");
    await form.getByLabel("Vencimento", { exact: true }).fill(due);
    await form.getByLabel("Multa depois do vencimento").selectOption({ label: "Percentual (%)" });
    await form.getByLabel("Valor da multa").fill("2,00");
    await form.getByLabel("Juros depois do vencimento").selectOption({ label: "% ao mês (dias corridos)" });
    await form.getByLabel("Valor dos juros").fill("1,00");
    await form.getByLabel("Desconto para quem paga antes").selectOption({ label: "Valor fixo até a data (R$)" });
    await form.getByLabel("Valor do desconto").fill("5,00");
    await form.getByLabel("Desconto vale até").fill(until);
    await form.getByLabel("Mensagem para quem paga (opcional)").fill("Mensalidade de dezembro");
    await form.getByLabel("Cidade").fill("Porto Alegre");
    await fitsBothScreens(owner, "the due-date charge form");
    await screenshotsAtBothSizes(owner, "banco-cobranca-vencimento");
    await form.getByRole("button", { name: "Criar cobrança com vencimento" }).click();
    await owner.getByText(/Cobrança de R\$\s150,00 para Maria da Silva criada no banco, com vencimento em/).waitFor();
    const href = await owner.getByRole("link", { name: "Abrir a página de pagamento" }).getAttribute("href");
    const id = new URL(href).pathname.split("/").pop();

    await owner.goto(`/pagamento/${id}`);
    await owner.getByText(/^Vencimento: \d\d\/\d\d\/\d{4}$/).waitFor();
    await owner.getByText("Depois do vencimento, multa de 2,00% e juros de 1,00% ao mês.").waitFor();
    await owner.getByText(/Pagando até .*, desconto de R\$\s5,00\./).waitFor();
    await fitsBothScreens(owner, "the due-date charge's payer page");
    await screenshotsAtBothSizes(owner, "cobranca-vencimento-pagina");

    await bank.payCharge(id.replaceAll("-", ""));
    await owner.getByRole("heading", { name: "Este QR code já foi pago" }).waitFor();
  });

  step("the QR code list shows the charges by their state, and the code form points to the bank's charges", async () => {
    await owner.goto("/painel/qrcodes");
    const charges = owner.getByRole("listitem").filter({ hasText: "Cobrança do banco" });
    await charges.first().waitFor();
    assert.equal(await charges.count(), 2, "the two charges made above");
    await charges.filter({ hasText: /Paga em/ }).first().waitFor();
    assert.equal(await charges.getByRole("link", { name: /Placa para imprimir/ }).count(), 0, "no sign for a charge");
    await fitsBothScreens(owner, "the QR code list with charges");
    await screenshotsAtBothSizes(owner, "qrcodes-cobrancas");

    await owner.goto("/painel/criar-qrcode");
    await owner.getByRole("heading", { name: "Venda com prazo para pagar?" }).waitFor();
    await owner.getByRole("link", { name: /Criar cobrança com validade na chave .* \(Sicredi\)/ }).waitFor();
    await fitsBothScreens(owner, "the code form pointing to the charges");
    await screenshotsAtBothSizes(owner, "criar-qrcode-cobranca");
  });

  step("a certificate ending in days is replaced without losing the connection, and the home says so", async () => {
    await owner.goto("/painel/chaves");
    const card = owner.getByRole("listitem").filter({ hasText: bank.key });
    await card.getByRole("link", { name: "Ver conexão ou criar cobrança" }).click();
    await owner.getByRole("button", { name: "Trocar credenciais ou certificado" }).click();
    const form = owner.getByRole("form", { name: "Conectar banco" });
    await form.getByLabel("Client ID", { exact: true }).fill(bank.clientId);
    await form.getByLabel("Client Secret", { exact: true }).fill(bank.clientSecret);
    await form.getByLabel("Certificado", { exact: true }).setInputFiles(join(files, "terminando.p12"));
    await form.getByRole("button", { name: "Conectar e testar" }).click();
    await owner.getByText(/Conectado ao Sicredi\. Os Pix recebidos na chave/).waitFor();

    await owner.goto("/painel");
    const warnings = owner.getByRole("status", { name: "Avisos dos bancos conectados" });
    await warnings.getByText("O certificado vence em 6 dias: peça o novo ao banco.").waitFor();
    await fitsBothScreens(owner, "the dashboard home with a bank warning");
    await screenshotsAtBothSizes(owner, "painel-aviso-certificado");
  });
});
