// Temporary: screenshots of the screens this branch touched (deleted before committing).
import { join } from "node:path";
import { startStack, uniqueEmail, waitForPath } from "./harness.mjs";

const OUT = "/tmp/shots-billing";
const SIZES = [[390, 844], [1366, 900]];
async function shoot(page, name) {
  for (const [w, h] of SIZES) {
    await page.setViewportSize({ width: w, height: h });
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(OUT, `${name}-${w}x${h}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1366, height: 900 });
}

process.env.BALCAO_SANDBOX_PAYMENTS = "true";
const stack = await startStack("shots-billing");
try {
  const page = await stack.newPage("dona");
  await page.clock.install();
  await page.goto("/criar-conta");
  await page.getByLabel("Seu nome", { exact: true }).fill("Rita Lima");
  await page.getByLabel("E-mail", { exact: true }).fill(uniqueEmail("rita"));
  await page.getByLabel("Senha", { exact: true }).fill("Senha-da-Rita-1");
  await page.getByRole("button", { name: "Criar conta", exact: true }).click();
  await waitForPath(page, "/painel/boas-vindas");
  await page.goto("/painel/transacoes");
  await page.getByText(/últimos 90 dias/).waitFor();
  await shoot(page, "transacoes-gratis");
  await page.goto("/painel/premium");
  await page.getByText("R$ 19,90 por mês").waitFor();
  await shoot(page, "premium");
  await page.getByRole("button", { name: "Assinar o Premium mensal" }).click();
  await page.getByLabel("Nome de quem paga", { exact: true }).fill("Rita Lima");
  await page.getByLabel("CPF ou CNPJ de quem paga", { exact: true }).fill("529.982.247-25");
  await page.getByRole("button", { name: "Gerar o Pix da assinatura" }).click();
  await waitForPath(page, "/pagar_asaas");
  await page.getByText("Aguardando o pagamento").waitFor();
  await shoot(page, "pagar-asaas-aguardando");
  const url = page.url();
  await page.clock.fastForward("31:00");
  await page.getByText(/não pode mais ser pago/).waitFor();
  await shoot(page, "pagar-asaas-expirado");
  await page.goto(url);
  await page.getByText(/não pode mais ser pago/).waitFor();
  await page.goto("/painel/assinatura");
  await page.getByText("Plano Grátis", { exact: true }).waitFor();
  await shoot(page, "assinatura-gratis");
} finally {
  await stack.stop();
}
