import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';

import { type FakeUser, db, giveBrowserSessionTo, seedSession, seedUser } from '@/testing/mocks/db';
import { apiError, fieldError } from '@/testing/mocks/handlers/api-error';
import { callTimes, server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/test-utils';

const ANDROID =
  'Mozilla/5.0 (Linux; Android 14; SM-A546E) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1';

const PNG_BYTES = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0];

function signedIn(fields: Partial<FakeUser> = {}) {
  const user = seedUser({ email: 'ana@exemplo.com', displayName: 'Ana Souza', ...fields });
  giveBrowserSessionTo(user);
  return user;
}

async function openSettings(fields: Partial<FakeUser> = {}) {
  const user = signedIn(fields);
  const app = renderApp('/painel/configuracoes');
  await screen.findByRole('form', { name: 'Seus dados' });
  return { ...app, account: user };
}

const form = (name: string) => screen.getByRole('form', { name });

describe('/painel/configuracoes: seus dados', () => {
  it('shows the saved name, phone (masked) and the defaults for new QR codes', async () => {
    await openSettings({
      phoneNumber: '+5511912345678',
      defaultMerchantName: 'Padaria da Ana',
      defaultMerchantCity: 'Recife',
    });
    const profile = form('Seus dados');
    expect(within(profile).getByLabelText('Seu nome')).toHaveValue('Ana Souza');
    expect(within(profile).getByLabelText('Telefone (opcional)')).toHaveValue('(11) 91234-5678');
    expect(within(profile).getByLabelText('Nome de quem recebe')).toHaveValue('Padaria da Ana');
    expect(within(profile).getByLabelText('Cidade')).toHaveValue('Recife');
    expect(screen.queryByText('Esta tela ainda está em construção.')).not.toBeInTheDocument();
  });

  it('saves name, phone and defaults, and the header follows the new name', async () => {
    const { user, account } = await openSettings();
    const profile = form('Seus dados');
    await user.clear(within(profile).getByLabelText('Seu nome'));
    await user.type(within(profile).getByLabelText('Seu nome'), 'Ana Maria Souza');
    await user.type(within(profile).getByLabelText('Telefone (opcional)'), '11987654321');
    expect(within(profile).getByLabelText('Telefone (opcional)')).toHaveValue('(11) 98765-4321');
    await user.type(within(profile).getByLabelText('Nome de quem recebe'), 'Padaria da Ana');
    await user.type(within(profile).getByLabelText('Cidade'), 'Recife');
    await user.click(within(profile).getByRole('button', { name: 'Salvar dados' }));

    expect(await within(profile).findByText('Dados salvos.')).toBeInTheDocument();
    expect(account).toMatchObject({
      displayName: 'Ana Maria Souza',
      phoneNumber: '+5511987654321',
      defaultMerchantName: 'Padaria da Ana',
      defaultMerchantCity: 'Recife',
    });
    expect(await screen.findByText('Ana Maria Souza', { selector: '.account-name' })).toBeInTheDocument();
  });

  it('asks for the whole phone number before sending anything', async () => {
    const { user } = await openSettings();
    const profile = form('Seus dados');
    await user.type(within(profile).getByLabelText('Telefone (opcional)'), '1198765');
    await user.click(within(profile).getByRole('button', { name: 'Salvar dados' }));
    expect(within(profile).getByLabelText('Telefone (opcional)')).toHaveAccessibleDescription(
      /Digite o telefone com DDD: 10 ou 11 dígitos\./,
    );
    expect(within(profile).getByLabelText('Telefone (opcional)')).toHaveFocus();
    expect(callTimes('PATCH /api/account/settings')).toEqual([]);
  });

  it('shows every field error at once: no name and half a phone number', async () => {
    const { user } = await openSettings();
    const profile = form('Seus dados');
    await user.clear(within(profile).getByLabelText('Seu nome'));
    await user.type(within(profile).getByLabelText('Telefone (opcional)'), '1198765');
    await user.click(within(profile).getByRole('button', { name: 'Salvar dados' }));
    expect(within(profile).getByLabelText('Seu nome')).toHaveAccessibleDescription('Campo obrigatório.');
    expect(within(profile).getByLabelText('Telefone (opcional)')).toHaveAccessibleDescription(
      /Digite o telefone com DDD: 10 ou 11 dígitos\./,
    );
    expect(within(profile).getByLabelText('Seu nome')).toHaveFocus();
    expect(callTimes('PATCH /api/account/settings')).toEqual([]);
  });

  it('shows a 422 under the field it names', async () => {
    server.use(
      http.patch('/api/account/settings', () =>
        fieldError('invalid-display-name', 'O nome não pode ter só símbolos.', 'displayName'),
      ),
    );
    const { user } = await openSettings();
    const profile = form('Seus dados');
    await user.click(within(profile).getByRole('button', { name: 'Salvar dados' }));
    const name = within(profile).getByLabelText('Seu nome');
    await waitFor(() => expect(name).toHaveAccessibleDescription('O nome não pode ter só símbolos.'));
    expect(name).toHaveFocus();
  });

  it('previews how a BR Code writes the name and city, with the changes, once typing stops', async () => {
    const { user } = await openSettings();
    const profile = form('Seus dados');
    await user.type(within(profile).getByLabelText('Nome de quem recebe'), 'Padaria São João');
    await user.type(within(profile).getByLabelText('Cidade'), 'Maceió');

    expect(await within(profile).findByText('PADARIA SAO JOAO')).toBeInTheDocument();
    expect(within(profile).getByText('MACEIO')).toBeInTheDocument();
    expect(
      within(profile).getByText(
        'Cidade: “Maceió” será escrito como “MACEIO” (letras acentuadas escritas sem acento; letras em maiúsculas).',
      ),
    ).toBeInTheDocument();
    // Debounced: far fewer requests than keystrokes.
    expect(callTimes('GET /api/brcode/normalize').length).toBeLessThanOrEqual(2);
  });

  it('says in the preview when the server refuses a name', async () => {
    const { user } = await openSettings();
    const profile = form('Seus dados');
    await user.type(within(profile).getByLabelText('Nome de quem recebe'), 'Comércio de Alimentos Naturais');
    await user.type(within(profile).getByLabelText('Cidade'), 'Recife');
    expect(await within(profile).findByText('Nome: use no máximo 25 caracteres.')).toBeInTheDocument();
  });
});

describe('/painel/configuracoes: foto', () => {
  const photoInput = () => screen.getByLabelText('Escolher uma foto');

  it('uploads the chosen photo as raw bytes and shows it', async () => {
    const { user, account } = await openSettings();
    await user.upload(photoInput(), new File([new Uint8Array(PNG_BYTES)], 'eu.png', { type: 'image/png' }));

    expect(await screen.findByText('Foto atualizada.')).toBeInTheDocument();
    expect(account.photo).toEqual({ type: 'image/png', version: 1 });
    expect(await screen.findByRole('img', { name: 'Sua foto' })).toHaveAttribute('src', `/fotos/${account.uid}?v=1`);
    expect(screen.getByLabelText('Trocar a foto')).toBeInTheDocument();
  });

  it('refuses a photo over 1 MiB without uploading it', async () => {
    const { user } = await openSettings();
    const big = new Uint8Array(1024 * 1024 + 1);
    big.set(PNG_BYTES);
    await user.upload(photoInput(), new File([big], 'grande.png', { type: 'image/png' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('A foto passa de 1 MB. Escolha uma imagem menor.');
    expect(photoInput()).toHaveAttribute('aria-invalid', 'true');
    expect(callTimes('PUT /api/account/photo')).toEqual([]);
  });

  it('refuses a type other than JPEG, PNG or WebP without uploading it', async () => {
    await openSettings();
    // Past the input's `accept` filter, as a "todos os arquivos" file picker allows.
    fireEvent.change(photoInput(), { target: { files: [new File(['GIF89a'], 'animada.gif', { type: 'image/gif' })] } });
    expect(await screen.findByRole('alert')).toHaveTextContent('Use uma foto em JPEG, PNG ou WebP.');
    expect(callTimes('PUT /api/account/photo')).toEqual([]);
  });

  it('says so when the server finds the bytes are not the image the file claims to be', async () => {
    const { user } = await openSettings();
    await user.upload(photoInput(), new File(['<svg/>'], 'falsa.png', { type: 'image/png' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Use uma foto em JPEG, PNG ou WebP.');
    expect(callTimes('PUT /api/account/photo')).toHaveLength(1);
  });

  it('says the photo is too large when the server answers 413', async () => {
    server.use(http.put('/api/account/photo', () => apiError(413, 'photo-too-large', 'Grande demais.')));
    const { user } = await openSettings();
    await user.upload(photoInput(), new File([new Uint8Array(PNG_BYTES)], 'eu.png', { type: 'image/png' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('A foto passa de 1 MB. Escolha uma imagem menor.');
  });
});

describe('/painel/configuracoes: senha', () => {
  it('changes the password, with the policy ticking under the new one', async () => {
    const { user, account } = await openSettings({ password: 'Antiga123' });
    const passwordForm = form('Trocar senha');
    await user.type(within(passwordForm).getByLabelText('Senha atual'), 'Antiga123');
    await user.type(within(passwordForm).getByLabelText('Senha nova'), 'NovaSenha9');
    expect(within(passwordForm).getByText('Pelo menos 8 caracteres').closest('li')).toHaveClass('met');
    await user.click(within(passwordForm).getByRole('button', { name: 'Trocar senha' }));

    expect(await within(passwordForm).findByText(/Senha alterada/)).toBeInTheDocument();
    expect(account.password).toBe('NovaSenha9');
    expect(within(passwordForm).getByLabelText('Senha atual')).toHaveValue('');
  });

  it('points at the current password when it is wrong', async () => {
    const { user, account } = await openSettings({ password: 'Antiga123' });
    const passwordForm = form('Trocar senha');
    await user.type(within(passwordForm).getByLabelText('Senha atual'), 'Errada123');
    await user.type(within(passwordForm).getByLabelText('Senha nova'), 'NovaSenha9');
    await user.click(within(passwordForm).getByRole('button', { name: 'Trocar senha' }));

    const current = within(passwordForm).getByLabelText('Senha atual');
    await waitFor(() => expect(current).toHaveAccessibleDescription('Senha incorreta. Confira e tente de novo.'));
    expect(current).toHaveFocus();
    expect(account.password).toBe('Antiga123');
  });

  it('does not send a new password that misses part of the policy', async () => {
    const { user } = await openSettings();
    const passwordForm = form('Trocar senha');
    await user.type(within(passwordForm).getByLabelText('Senha atual'), 'Senha123');
    await user.type(within(passwordForm).getByLabelText('Senha nova'), 'fraca');
    await user.click(within(passwordForm).getByRole('button', { name: 'Trocar senha' }));
    expect(within(passwordForm).getByLabelText('Senha nova')).toHaveAccessibleDescription(
      /A senha ainda não atende a todos os itens da lista\./,
    );
    expect(callTimes('POST /api/account/password')).toEqual([]);
  });

  it('shows every field error at once: no current password and a weak new one', async () => {
    const { user } = await openSettings();
    const passwordForm = form('Trocar senha');
    await user.type(within(passwordForm).getByLabelText('Senha nova'), 'fraca');
    await user.click(within(passwordForm).getByRole('button', { name: 'Trocar senha' }));
    expect(within(passwordForm).getByLabelText('Senha atual')).toHaveAccessibleDescription('Campo obrigatório.');
    expect(within(passwordForm).getByLabelText('Senha nova')).toHaveAccessibleDescription(
      /A senha ainda não atende a todos os itens da lista\./,
    );
    expect(within(passwordForm).getByLabelText('Senha atual')).toHaveFocus();
    expect(callTimes('POST /api/account/password')).toEqual([]);
  });

  it('shows what the server’s policy still misses (weak-password, 422) under the new password', async () => {
    server.use(
      http.post('/api/account/password', () =>
        apiError(422, 'weak-password', 'Esta senha aparece em vazamentos conhecidos.'),
      ),
    );
    const { user } = await openSettings();
    const passwordForm = form('Trocar senha');
    await user.type(within(passwordForm).getByLabelText('Senha atual'), 'Senha123');
    await user.type(within(passwordForm).getByLabelText('Senha nova'), 'Senha1234');
    await user.click(within(passwordForm).getByRole('button', { name: 'Trocar senha' }));
    await waitFor(() =>
      expect(within(passwordForm).getByLabelText('Senha nova')).toHaveAccessibleDescription(
        /Esta senha aparece em vazamentos conhecidos\./,
      ),
    );
  });
});

describe('/painel/configuracoes: e-mail', () => {
  it('sends a link to the new address and says the change waits for it', async () => {
    const { user, account } = await openSettings();
    const emailForm = form('Trocar e-mail');
    await user.type(within(emailForm).getByLabelText('Novo e-mail'), 'ana.nova@exemplo.com');
    await user.type(within(emailForm).getByLabelText('Sua senha'), 'Senha123');
    await user.click(within(emailForm).getByRole('button', { name: 'Trocar e-mail' }));

    const notice = await within(emailForm).findByRole('status');
    expect(notice).toHaveTextContent('Enviamos um link para ana.nova@exemplo.com');
    expect(notice).toHaveTextContent('continue entrando com ana@exemplo.com');
    const codes = [...db.actionCodes.values()];
    expect(codes).toEqual([expect.objectContaining({ purpose: 'change-email', newEmail: 'ana.nova@exemplo.com' })]);
    expect(account.email).toBe('ana@exemplo.com');
  });

  it('points at the password when it is wrong', async () => {
    const { user } = await openSettings();
    const emailForm = form('Trocar e-mail');
    await user.type(within(emailForm).getByLabelText('Novo e-mail'), 'ana.nova@exemplo.com');
    await user.type(within(emailForm).getByLabelText('Sua senha'), 'Errada123');
    await user.click(within(emailForm).getByRole('button', { name: 'Trocar e-mail' }));
    await waitFor(() =>
      expect(within(emailForm).getByLabelText('Sua senha')).toHaveAccessibleDescription(
        /Senha incorreta\. Confira e tente de novo\./,
      ),
    );
    expect(db.actionCodes.size).toBe(0);
  });

  it('says when the new address belongs to another account', async () => {
    seedUser({ email: 'bruno@exemplo.com' });
    const { user } = await openSettings();
    const emailForm = form('Trocar e-mail');
    await user.type(within(emailForm).getByLabelText('Novo e-mail'), 'bruno@exemplo.com');
    await user.type(within(emailForm).getByLabelText('Sua senha'), 'Senha123');
    await user.click(within(emailForm).getByRole('button', { name: 'Trocar e-mail' }));
    await waitFor(() =>
      expect(within(emailForm).getByLabelText('Novo e-mail')).toHaveAccessibleDescription(
        'Este e-mail já é usado por outra conta do Balcão.',
      ),
    );
  });

  it('shows every field error at once: a malformed address and no password', async () => {
    const { user } = await openSettings();
    const emailForm = form('Trocar e-mail');
    await user.type(within(emailForm).getByLabelText('Novo e-mail'), 'ana.nova@');
    await user.click(within(emailForm).getByRole('button', { name: 'Trocar e-mail' }));
    expect(within(emailForm).getByLabelText('Novo e-mail')).toHaveAccessibleDescription(
      'Digite um e-mail válido (ex.: nome@exemplo.com).',
    );
    expect(within(emailForm).getByLabelText('Sua senha')).toHaveAccessibleDescription(
      /^Para confirmar que é você\. Campo obrigatório\.$/,
    );
    expect(within(emailForm).getByLabelText('Novo e-mail')).toHaveFocus();
    expect(callTimes('POST /api/account/email')).toEqual([]);
  });

  it('says the new address is already the account’s before sending it', async () => {
    const { user } = await openSettings();
    const emailForm = form('Trocar e-mail');
    await user.type(within(emailForm).getByLabelText('Novo e-mail'), 'ANA@exemplo.com');
    await user.type(within(emailForm).getByLabelText('Sua senha'), 'Senha123');
    await user.click(within(emailForm).getByRole('button', { name: 'Trocar e-mail' }));
    expect(within(emailForm).getByLabelText('Novo e-mail')).toHaveAccessibleDescription(
      'Este já é o e-mail da sua conta.',
    );
    expect(callTimes('POST /api/account/email')).toEqual([]);
  });

  it('offers to send the confirmation link again while the address is not confirmed', async () => {
    const { user } = await openSettings({ emailVerified: false });
    expect(screen.getByText('não confirmado')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Reenviar o link de confirmação' }));
    expect(await screen.findByText('Enviamos um novo link de confirmação para ana@exemplo.com.')).toBeInTheDocument();
    expect(callTimes('POST /api/auth/send-verification')).toHaveLength(1);
  });
});

describe('/painel/configuracoes: aparelhos conectados', () => {
  it('lists every session, marking this one as "este dispositivo"', async () => {
    const account = signedIn();
    seedSession(account, { userAgent: ANDROID });
    renderApp('/painel/configuracoes');
    const list = await screen.findByRole('list', { name: 'Aparelhos conectados' });
    await within(list).findByText('Chrome no Android');
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    const current = items.find((item) => within(item).queryByText('este dispositivo') !== null);
    expect(current).toBeDefined();
    expect(within(current as HTMLElement).queryByRole('button')).not.toBeInTheDocument();
    const phone = items.find((item) => item !== current);
    expect(phone).toHaveTextContent(/Entrou em 02\/11\/2026, \d\d:\d\d · último uso em 02\/11\/2026/);
  });

  it('ends another session with DELETE after a second step naming the device', async () => {
    const account = signedIn();
    const phone = seedSession(account, { userAgent: ANDROID });
    const app = renderApp('/painel/configuracoes');
    await app.user.click(await screen.findByRole('button', { name: /^Encerrar a sessão: Chrome no Android/ }));
    const question = screen.getByRole('group', { name: /^Encerrar a sessão de Chrome no Android, último uso em/ });
    expect(db.sessions.has(phone.id)).toBe(true);
    await app.user.click(within(question).getByRole('button', { name: 'Sim, encerrar a sessão' }));

    expect(await screen.findByText('Sessão encerrada.')).toBeInTheDocument();
    expect(db.sessions.has(phone.id)).toBe(false);
    expect(callTimes(`DELETE /api/auth/sessions/${phone.id}`)).toHaveLength(1);
    await waitFor(() => expect(screen.queryByText('Chrome no Android')).not.toBeInTheDocument());
  });

  it('ends all the other sessions at once, after a second step, and keeps this one', async () => {
    const account = signedIn();
    seedSession(account, { userAgent: ANDROID });
    seedSession(account, { userAgent: IPHONE });
    const app = renderApp('/painel/configuracoes');
    await app.user.click(await screen.findByRole('button', { name: 'Encerrar todas as outras sessões' }));
    const question = screen.getByRole('group', { name: /^Encerrar as 2 outras sessões\?/ });
    expect(within(question).getByRole('button', { name: 'Sim, encerrar as outras sessões' })).toHaveFocus();
    expect(db.sessions.size).toBe(3);
    await app.user.click(within(question).getByRole('button', { name: 'Sim, encerrar as outras sessões' }));

    expect(await screen.findByText('Todas as outras sessões foram encerradas.')).toHaveFocus();
    expect([...db.sessions.keys()]).toEqual([db.browserSessionId]);
    expect(app.location()).toBe('/painel/configuracoes');
  });
});

describe('/painel/configuracoes: excluir conta', () => {
  it('explains what is erased, what the law keeps (Marco Civil, art. 15) and that QR codes keep working', async () => {
    await openSettings();
    const section = screen.getByRole('region', { name: 'Excluir conta' });
    expect(section).toHaveTextContent('O que apagamos');
    expect(section).toHaveTextContent(/registros de acesso .* por 6 meses/);
    expect(section).toHaveTextContent('Marco Civil da Internet (Lei 12.965/2014, art. 15)');
    // Balcão records no payments (static codes do not pass through it): the page promises no such record,
    // and says what stays instead.
    expect(section).not.toHaveTextContent(/transaç/);
    expect(section).toHaveTextContent(
      'Os QR codes já criados: uma placa impressa ainda pode ser paga, e a página de pagamento de cada um continua no ar.',
    );
  });

  it('refuses a wrong password after the second step and keeps the account', async () => {
    const { user } = await openSettings();
    const deletion = form('Excluir conta');
    await user.type(within(deletion).getByLabelText('Sua senha'), 'Errada123');
    await user.click(within(deletion).getByRole('button', { name: 'Excluir minha conta' }));
    await user.click(within(deletion).getByRole('button', { name: 'Sim, excluir minha conta para sempre' }));
    await waitFor(() =>
      expect(within(deletion).getByLabelText('Sua senha')).toHaveAccessibleDescription(
        /Senha incorreta\. Confira e tente de novo\./,
      ),
    );
    expect(within(deletion).getByLabelText('Sua senha')).toHaveFocus();
    // Back to the first step: a new password must be confirmed again.
    expect(within(deletion).queryByRole('button', { name: /Sim, excluir/ })).not.toBeInTheDocument();
    expect(db.users.has('ana@exemplo.com')).toBe(true);
  });

  it('asks for the password, focused, before deleting anything', async () => {
    const { user } = await openSettings();
    const deletion = form('Excluir conta');
    await user.click(within(deletion).getByRole('button', { name: 'Excluir minha conta' }));
    expect(within(deletion).getByLabelText('Sua senha')).toHaveAccessibleDescription(/Campo obrigatório\.$/);
    expect(within(deletion).getByLabelText('Sua senha')).toHaveFocus();
    expect(within(deletion).queryByRole('button', { name: /Sim, excluir/ })).not.toBeInTheDocument();
    expect(callTimes('POST /api/account/delete')).toEqual([]);
    expect(db.users.has('ana@exemplo.com')).toBe(true);
  });

  it('asks a second time, naming the account and what is erased, before deleting; "Não" keeps it', async () => {
    const { user } = await openSettings();
    const deletion = form('Excluir conta');
    await user.type(within(deletion).getByLabelText('Sua senha'), 'Senha123');
    await user.click(within(deletion).getByRole('button', { name: 'Excluir minha conta' }));

    const question = within(deletion).getByRole('group', { name: /Excluir a conta ana@exemplo\.com para sempre\?/ });
    expect(question).toHaveTextContent('Seu nome, e-mail, telefone e foto');
    expect(question).toHaveTextContent('Não dá para desfazer.');
    expect(within(question).getByRole('button', { name: 'Sim, excluir minha conta para sempre' })).toHaveFocus();
    expect(callTimes('POST /api/account/delete')).toEqual([]);

    await user.click(within(question).getByRole('button', { name: 'Não, manter minha conta' }));
    expect(within(deletion).queryByRole('group')).not.toBeInTheDocument();
    expect(callTimes('POST /api/account/delete')).toEqual([]);
    expect(db.users.has('ana@exemplo.com')).toBe(true);
  });

  it('deletes the account after the second step, signs out and ends on a page that says so', async () => {
    const app = await openSettings();
    const deletion = form('Excluir conta');
    await app.user.type(within(deletion).getByLabelText('Sua senha'), 'Senha123');
    await app.user.click(within(deletion).getByRole('button', { name: 'Excluir minha conta' }));
    await app.user.click(within(deletion).getByRole('button', { name: 'Sim, excluir minha conta para sempre' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Conta excluída' })).toBeInTheDocument();
    expect(app.location()).toBe('/painel/conta-excluida');
    expect(screen.getByText('ana@exemplo.com').closest('[role="status"]')).toHaveTextContent(
      'A conta ana@exemplo.com foi excluída.',
    );
    expect(screen.getByRole('link', { name: 'Ir para a página inicial' })).toHaveAttribute('href', '/');
    expect(db.users.has('ana@exemplo.com')).toBe(false);
    expect(db.refreshCookie).toBeNull();
    // Signed out here too: the dashboard stays closed, and says why.
    await act(() => app.router.navigate('/painel'));
    await waitFor(() => expect(app.location()).toBe('/painel/conta-excluida'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Conta excluída' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Senha')).not.toBeInTheDocument();
  });

  it('does not claim a deletion when the end page is opened any other way', async () => {
    const app = renderApp('/painel/conta-excluida');
    await waitFor(() => expect(app.location()).toBe('/entrar'));
    expect(screen.queryByText(/foi excluída/)).not.toBeInTheDocument();
  });
});
