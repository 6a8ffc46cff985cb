import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { db, giveBrowserSessionTo, seedQrCode, seedSign, seedUser } from '@/testing/mocks/db';
import { requestLog } from '@/testing/mocks/server';
import { renderApp } from '@/testing/test-utils';

function ownerWithCode() {
  const ana = seedUser({ email: 'ana@exemplo.com', displayName: 'Ana Souza' });
  giveBrowserSessionTo(ana);
  const code = seedQrCode(ana, { merchantName: 'PADARIA DA ANA', amountCentavos: 1250 });
  return { ana, code };
}

const previewSrc = () => screen.getByRole('img', { name: /Prévia da placa/ }).getAttribute('src');

describe('/painel/placas: making a sign from a code', () => {
  it('starts with the code it was opened for, previews the real SVG as the choices settle, and saves', async () => {
    const { code } = ownerWithCode();
    const { user } = renderApp(`/painel/placas?qrcode=${code.id}`);
    const form = await screen.findByRole('form', { name: 'Criar placa' });
    expect(within(form).getByRole('combobox', { name: 'QR code' })).toHaveValue(code.id);
    expect(within(form).getByLabelText('Nome da placa')).toHaveValue('PADARIA DA ANA');
    await waitFor(() => expect(previewSrc()).toBe(`/placas/${code.id}.svg`));

    await user.selectOptions(within(form).getByRole('combobox', { name: 'Modelo' }), 'Faixa');
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Tamanho do papel' }), 'A5 (14,8 × 21 cm)');
    await user.type(within(form).getByLabelText('Título (opcional)'), 'Pague aqui');
    await user.click(within(form).getByRole('checkbox', { name: 'Mostrar o logotipo da conta' }));
    await waitFor(() =>
      expect(previewSrc()).toBe(`/placas/${code.id}.svg?modelo=faixa&tamanho=a5&titulo=Pague+aqui&logo=nao`),
    );

    await user.clear(within(form).getByLabelText('Nome da placa'));
    await user.type(within(form).getByLabelText('Nome da placa'), 'Vitrine');
    await user.click(within(form).getByRole('button', { name: 'Salvar placa' }));
    await within(form).findByText(/Placa “Vitrine” salva/);
    const item = await screen.findByRole('listitem', { name: 'Vitrine' });
    expect(within(item).getByRole('link', { name: /^Baixar PDF/ })).toHaveAttribute(
      'href',
      `/placas/${code.id}.pdf?modelo=faixa&tamanho=a5&titulo=Pague+aqui&logo=nao`,
    );
    expect(within(item).getByRole('link', { name: /^Baixar PNG \(300 dpi\)/ })).toHaveAttribute(
      'href',
      `/placas/${code.id}.png?modelo=faixa&tamanho=a5&titulo=Pague+aqui&logo=nao`,
    );
    expect(db.signs).toEqual([expect.objectContaining({ qrcodeId: code.id, name: 'Vitrine', withLogo: false })]);
  });

  it('checks every field before sending: a code, a name, a headline within 40 characters', async () => {
    ownerWithCode();
    const { user } = renderApp('/painel/placas');
    const form = await screen.findByRole('form', { name: 'Criar placa' });
    await user.type(within(form).getByLabelText('Título (opcional)'), 'x'.repeat(41));
    const before = requestLog.filter((entry) => entry.call.startsWith('POST')).length;
    await user.click(within(form).getByRole('button', { name: 'Salvar placa' }));
    expect(within(form).getByRole('combobox', { name: 'QR code' })).toHaveAccessibleDescription(/Escolha um QR code\./);
    expect(within(form).getByLabelText('Nome da placa')).toHaveAccessibleDescription(/Campo obrigatório\./);
    expect(within(form).getByLabelText('Título (opcional)')).toHaveAccessibleDescription(
      /O título pode ter até 40 caracteres\./,
    );
    expect(requestLog.filter((entry) => entry.call.startsWith('POST')).length).toBe(before);
    expect(screen.getByText('Escolha um QR code para ver a prévia da placa.')).toBeInTheDocument();
  });

  it('sends a person with no code yet to make one first', async () => {
    const ana = seedUser({ email: 'ana@exemplo.com', displayName: 'Ana Souza' });
    giveBrowserSessionTo(ana);
    renderApp('/painel/placas');
    expect(await screen.findByRole('link', { name: 'Crie um QR code' })).toHaveAttribute(
      'href',
      '/painel/criar-qrcode',
    );
    expect(await screen.findByText(/Nenhuma placa salva ainda/)).toBeInTheDocument();
  });
});

describe('/painel/placas: the saved signs', () => {
  it('duplicates a sign and says which copy was made', async () => {
    const { ana, code } = ownerWithCode();
    seedSign(ana, code, { name: 'Caixa', theme: 'azul' });
    const { user } = renderApp('/painel/placas');
    const item = await screen.findByRole('listitem', { name: 'Caixa' });
    await user.click(within(item).getByRole('button', { name: /^Duplicar/ }));
    expect(await screen.findByText(/^Cópia criada: “Cópia de Caixa”\./)).toHaveAttribute('role', 'status');
    const copy = await screen.findByRole('listitem', { name: 'Cópia de Caixa' });
    expect(within(copy).getByText('Azul')).toBeInTheDocument();
  });

  it('edits a sign in place: the code stays, the new choices are saved and said', async () => {
    const { ana, code } = ownerWithCode();
    seedSign(ana, code, { name: 'Caixa' });
    const { user } = renderApp('/painel/placas');
    const item = await screen.findByRole('listitem', { name: 'Caixa' });
    await user.click(within(item).getByRole('button', { name: /^Editar/ }));
    const form = within(item).getByRole('form', { name: 'Alterar a placa Caixa' });
    expect(within(form).getByRole('combobox', { name: 'QR code' })).toBeDisabled();
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Cores' }), 'Vinho');
    await user.type(within(form).getByLabelText('Rodapé (opcional)'), 'Aberto das 8h às 18h');
    await user.click(within(form).getByRole('button', { name: 'Salvar alterações' }));
    expect(await screen.findByText(/^Placa “Caixa” alterada\./)).toHaveAttribute('role', 'status');
    const saved = await screen.findByRole('listitem', { name: 'Caixa' });
    expect(within(saved).getByText('Vinho')).toBeInTheDocument();
    expect(within(saved).getByText('Aberto das 8h às 18h')).toBeInTheDocument();
    expect(db.signs[0]).toMatchObject({ theme: 'vinho', footer: 'Aberto das 8h às 18h', qrcodeId: code.id });
  });

  it('deletes a sign only after the person confirms, and says so', async () => {
    const { ana, code } = ownerWithCode();
    seedSign(ana, code, { name: 'Caixa' });
    const { user } = renderApp('/painel/placas');
    const item = await screen.findByRole('listitem', { name: 'Caixa' });
    await user.click(within(item).getByRole('button', { name: /^Excluir/ }));
    expect(db.signs).toHaveLength(1);
    const question = within(item).getByRole('group');
    expect(question).toHaveTextContent('O QR code e os pagamentos dele não mudam');
    await user.click(within(question).getByRole('button', { name: 'Sim, excluir a placa' }));
    expect(await screen.findByText(/^Placa “Caixa” excluída\./)).toHaveAttribute('role', 'status');
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Caixa' })).not.toBeInTheDocument());
    expect(db.signs).toEqual([]);
  });

  it('is in the dashboard’s navigation, and a code offers “Criar placa”', async () => {
    const { code } = ownerWithCode();
    const { user } = renderApp('/painel/qrcodes');
    const nav = await screen.findByRole('link', { name: 'Placas' });
    expect(nav).toHaveAttribute('href', '/painel/placas');
    const item = await screen.findByRole('listitem', { name: 'PADARIA DA ANA, R$ 12,50' });
    const make = within(item).getByRole('link', { name: /^Criar placa/ });
    await user.click(make);
    const form = await screen.findByRole('form', { name: 'Criar placa' });
    expect(within(form).getByRole('combobox', { name: 'QR code' })).toHaveValue(code.id);
  });
});

describe('/painel/placas: the code picker', () => {
  it('names each code by what it is for (its description), not by its txid', async () => {
    const ana = seedUser({ email: 'ana@exemplo.com', displayName: 'Ana Souza' });
    giveBrowserSessionTo(ana);
    seedQrCode(ana, {
      merchantName: 'PADARIA DA ANA',
      amountCentavos: 1250,
      description: 'Bolo de pote',
      txid: 'PEDIDO0042',
    });
    renderApp('/painel/placas');
    const form = await screen.findByRole('form', { name: 'Criar placa' });
    const option = await within(form).findByRole('option', { name: /Bolo de pote/ });
    expect(option).toHaveTextContent('Bolo de pote · R$ 12,50 · PADARIA DA ANA');
    expect(option).not.toHaveTextContent('PEDIDO0042');
  });
});
