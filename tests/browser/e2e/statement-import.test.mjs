// Issue 35 in a real browser against the real server: an owner with three codes (one of R$ 12,50,
// two of R$ 7,00) opens /painel/transacoes, taps "Importar extrato", chooses an OFX file of their
// bank (written here, dated minutes ago, with made-up people), sees its Pix grouped, picks the code
// of the R$ 7,00 that fits two (the codes' descriptions are written without accents, as the BR Code
// holds them), imports, sees the payments in the list as "Extrato bancário", and
// undoes the import after confirming. Then a year's statement of 3,000 Pix (a Nubank CSV) is
// imported in the background behind a progress bar.
//
// E2E_SHOTS_DIR (optional): the preview, the result and the undone import at 390×844 and 1366×900.

import assert from "node:assert/strict";
import { after, before, describe } from "node:test";

import {
  registerFirstKey,
  screenshotsAtBothSizes,
  signUpThroughForm,
  startStack,
  stepsOf,
  uniqueEmail,
} from "./harness.mjs";

const DESKTOP = { width: 1366, height: 900 };

/** `yyyyMMddHHmmss` in Brasília, `minutes` ago. */
function brasilia(minutes) {
  const at = new Date(Date.now() - minutes * 60_000 - 3 * 3_600_000);
  return at.toISOString().replace(/[-:T]/g, "").slice(0, 14);
}

function ofx() {
  const line = (fitid, minutes, amount, memo) =>
    `<STMTTRN>\n<TRNTYPE>${amount.startsWith("-") ? "DEBIT" : "CREDIT"}\n<DTPOSTED>${brasilia(minutes)}[-3:BRT]\n<TRNAMT>${amount}\n<FITID>${fitid}\n<MEMO>${memo}\n</STMTTRN>\n`;
  return [
    "OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\nCHARSET:1252\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS>\n",
    "<BANKACCTFROM>\n<BANKID>0260\n<BRANCHID>0001\n<ACCTID>1234567\n</BANKACCTFROM>\n<BANKTRANLIST>\n",
    line("N1", 3, "12,50", "PIX RECEBIDO - Maria Exemplo"),
    line("N2", 2, "30,00", "PIX RECEBIDO - Joao Exemplo"),
    line("N3", 2, "-5,00", "PIX ENVIADO - Mercado Exemplo"),
    line("N4", 1, "7,00", "PIX RECEBIDO - Ana Exemplo"),
    "</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n",
  ].join("");
}

describe("a bank statement is imported on /painel/transacoes and undone", () => {
  let stack;
  let owner;
  const step = stepsOf(() => stack);

  before(async () => {
    stack = await startStack("extrato");
    owner = await stack.newPage("titular");
  });

  after(async () => {
    await stack?.stop();
  });

  step("the owner has a key and three codes", async () => {
    await owner.setViewportSize(DESKTOP);
    await signUpThroughForm(owner, { name: "Rita Moura", email: uniqueEmail("rita"), password: "Senha-da-Rita-7" });
    await registerFirstKey(owner, { key: `caixa.${Date.now()}@padaria-e2e.com.br`, holder: "Rita Moura" });
    for (const [amount, description] of [
      ["12,50", "Pão na chapa"],
      ["7,00", "Café"],
      ["7,00", "Suco"],
    ]) {
      await owner.goto("/painel/criar-qrcode");
      const form = owner.getByRole("form", { name: "Criar QR code" });
      await owner.waitForFunction(
        (select) => select.selectedOptions[0]?.textContent?.includes("(padrão)"),
        await form.getByRole("combobox", { name: "Chave Pix", exact: true }).elementHandle(),
      );
      await form.getByLabel("Nome de quem recebe", { exact: true }).fill("Padaria da Rita");
      await form.getByLabel("Cidade", { exact: true }).fill("Recife");
      await form.getByLabel("Valor (opcional)", { exact: true }).fill(amount);
      await form.getByLabel("Descrição (opcional)", { exact: true }).fill(description);
      await form.getByRole("button", { name: "Criar QR code" }).click();
      await owner.getByRole("article", { name: "QR code criado" }).waitFor();
    }
  });

  step("the statement's Pix are shown grouped, and the import waits for the owner's pick", async () => {
    await owner.goto("/painel/transacoes");
    await owner.getByRole("heading", { level: 1, name: "Transações" }).waitFor();
    await owner.getByRole("button", { name: "Importar extrato" }).click();
    await owner
      .getByLabel("Arquivo do extrato")
      .setInputFiles({ name: "extrato-marco.ofx", mimeType: "application/x-ofx", buffer: Buffer.from(ofx(), "latin1") });
    const panel = owner.getByRole("region", { name: "Importar extrato" });
    await panel.getByText("4 lançamentos lidos, 3 Pix recebidos, 1 outro lançamento ignorado.", { exact: false }).waitFor();
    await panel.getByRole("region", { name: "Novos pagamentos por QR code" }).getByText("Pao na chapa", { exact: false }).waitFor();
    await panel.getByRole("region", { name: "Novos pagamentos sem QR code" }).getByText("Joao Exemplo", { exact: false }).waitFor();
    const importButton = panel.getByRole("button", { name: "Importar 3 pagamentos" });
    assert.equal(await importButton.isDisabled(), true, "nothing is imported before the pick");
    await screenshotsAtBothSizes(owner, "extrato-previa");
    await panel.getByRole("radio", { name: /Suco/ }).check();
    await importButton.click();
    await panel.getByRole("status").filter({ hasText: "3 pagamentos importados." }).waitFor();
  });

  step("the imported payments are in the list as 'Extrato bancário', the R$ 7,00 under the code picked", async () => {
    const table = owner.getByRole("table", { name: "Transações encontradas" });
    await table.getByRole("row").filter({ hasText: "Extrato bancário" }).nth(2).waitFor();
    const rows = await table.getByRole("row").filter({ hasText: "Extrato bancário" }).allInnerTexts();
    assert.equal(rows.length, 3, rows.join("\n"));
    assert.ok(rows.some((row) => row.includes("R$ 7,00") && row.includes("Suco")), rows.join("\n"));
    assert.ok(rows.some((row) => row.includes("R$ 12,50") && row.includes("Pao na chapa")), rows.join("\n"));
    await owner.getByRole("region", { name: "Importações de extrato" }).getByText("extrato-marco.ofx", { exact: false }).waitFor();
    await screenshotsAtBothSizes(owner, "extrato-importado");
  });

  step("undoing the import asks first, then the payments are voided and leave the totals", async () => {
    const past = owner.getByRole("region", { name: "Importações de extrato" });
    await past.getByRole("button", { name: "Desfazer importação" }).click();
    const dialog = past.getByRole("alertdialog", { name: "Desfazer importação" });
    await dialog.waitFor();
    await screenshotsAtBothSizes(owner, "extrato-desfazer");
    await dialog.getByRole("button", { name: "Sim, desfazer" }).click();
    await past.getByText("desfeita", { exact: false }).waitFor();
    // The earlier "N pagamentos importados." gives way to what is true now.
    await owner.getByText("Importação de extrato-marco.ofx desfeita: os pagamentos que ela registrou foram anulados.").waitFor();
    assert.equal(await owner.getByText("3 pagamentos importados.").count(), 0);
    const table = owner.getByRole("table", { name: "Transações encontradas" });
    await table.getByRole("row").filter({ hasText: "Anulado" }).nth(2).waitFor();
    const totals = owner.getByLabel("Totais do filtro");
    assert.match(await totals.innerText(), /Pagamentos\s+0\b/);
    await screenshotsAtBothSizes(owner, "extrato-desfeito");
  });
  step("a CSV of a bank Balcão does not know is read with the columns the owner names", async () => {
    const today = new Date(Date.now() - 3 * 3_600_000).toISOString().slice(0, 10).split("-").reverse().join("/");
    const csv = [
      "Banco Exemplo S.A.;Extrato de conta corrente",
      "Quando;Histórico;Entrada;Saída;Quem",
      `${today};PIX RECEBIDO;12,50;;Fulano Exemplo`,
      `${today};PIX ENVIADO;;8,00;Mercado Exemplo`,
      `${today};Pix recebido;30,00;;Beltrana Exemplo`,
    ].join("\n");
    await owner.getByLabel("Arquivo do extrato").setInputFiles({
      name: "extrato-banco-exemplo.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(`${csv}\n`, "utf8"),
    });
    const form = owner.getByRole("form", { name: "Colunas do extrato" });
    await form.waitFor();
    await form.getByRole("region", { name: "Primeiras linhas do arquivo" }).getByText("Beltrana Exemplo").waitFor();
    await form.getByLabel("Linhas antes do primeiro lançamento").fill("2");
    await form.getByRole("radio", { name: "Duas colunas: entradas e saídas" }).check();
    await form.getByLabel("Entradas", { exact: true }).selectOption({ label: "Coluna 3 — Entrada" });
    await form.getByLabel("Saídas", { exact: true }).selectOption({ label: "Coluna 4 — Saída" });
    await form.getByRole("checkbox", { name: "Coluna 2 — Histórico" }).check();
    await form.getByRole("checkbox", { name: "Coluna 3 — Entrada" }).uncheck();
    await form.getByRole("checkbox", { name: "Coluna 5 — Quem" }).check();
    await screenshotsAtBothSizes(owner, "extrato-colunas");
    await form.getByRole("button", { name: "Ver prévia com estas colunas" }).click();
    const panel = owner.getByRole("region", { name: "Importar extrato" });
    const importButton = panel.getByRole("button", { name: "Importar 2 pagamentos" });
    await importButton.waitFor();
    // The columns stay within reach after the preview.
    await panel.getByRole("button", { name: "Mudar as colunas" }).waitFor();
    await screenshotsAtBothSizes(owner, "extrato-colunas-previa");
    await importButton.click();
    await panel.getByRole("status").filter({ hasText: "2 pagamentos importados." }).waitFor();
  });

  step("a statement of 3,000 Pix is written in the background behind a progress bar", async () => {
    const rows = ["Data,Valor,Identificador,Descrição"];
    for (let n = 0; n < 3000; n += 1) {
      const day = String((n % 28) + 1).padStart(2, "0");
      rows.push(`${day}/02/2026,${Math.floor(n / 100) + 1}.${String(n % 100).padStart(2, "0")},g${n},Transferência recebida pelo Pix - CLIENTE ${n}`);
    }
    await owner.getByLabel("Arquivo do extrato").setInputFiles({
      name: "extrato-fevereiro.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(`${rows.join("\n")}\n`, "utf8"),
    });
    const panel = owner.getByRole("region", { name: "Importar extrato" });
    const importButton = panel.getByRole("button", { name: "Importar 3000 pagamentos" });
    await importButton.waitFor();
    await importButton.click();
    const bar = panel.getByRole("progressbar");
    // The bar may already be gone on a fast machine; when it is there, it is drawn.
    if (await bar.waitFor({ timeout: 3_000 }).then(() => true, () => false)) {
      await screenshotsAtBothSizes(owner, "extrato-em-andamento");
    }
    await panel.getByRole("status").filter({ hasText: "3.000 pagamentos importados." }).waitFor({ timeout: 60_000 });
    assert.equal(await bar.count(), 0, "the bar leaves once the import is done");
    await owner
      .getByRole("region", { name: "Importações de extrato" })
      .getByText("extrato-fevereiro.csv", { exact: false })
      .waitFor();
  });
});
