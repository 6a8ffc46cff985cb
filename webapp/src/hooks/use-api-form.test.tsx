import { render, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';

import { FormAlert } from '@/components/form-alert';
import { TextField } from '@/components/text-field';
import type { ApiError } from '@/lib/api-error';
import { errorMessage } from '@/lib/error-messages';
import { INVALID_EMAIL, REQUIRED, emailAddress, optionalText, requiredText } from '@/utils/field-rules';

import { type ApiFormOptions, useApiForm } from './use-api-form';

const schema = z.object({ name: requiredText(), email: emailAddress(), city: optionalText() });
type Sent = z.output<typeof schema>;

type Options = Omit<ApiFormOptions<typeof schema, string>, 'schema' | 'defaultValues'>;

function ExampleForm(options: Options) {
  const form = useApiForm({ schema, defaultValues: { name: '', email: '', city: '' }, ...options });
  return (
    <form {...form.formProps} aria-label="Exemplo">
      {form.failure ? <FormAlert>{errorMessage(form.failure)}</FormAlert> : null}
      {form.outcome ? <p role="status">{form.outcome}</p> : null}
      <TextField label="Nome" {...form.field('name')} />
      <TextField label="E-mail" {...form.field('email')} />
      <TextField label="Cidade" {...form.field('city')} />
      <button type="submit">Enviar</button>
    </form>
  );
}

function refusal(fields: Partial<ApiError>): ApiError {
  return {
    status: 422,
    code: 'invalid-argument',
    serverMessage: 'Mensagem do servidor.',
    retryAfterSeconds: null,
    field: null,
    ...fields,
  };
}

/** A `send` refused as RTK Query's `unwrap()` refuses: with the `ApiError` itself. */
function refusedWith(error: ApiError) {
  return vi.fn<(values: Sent) => Promise<string>>().mockRejectedValue(error);
}

function setUp(options: Partial<Options> = {}) {
  const send = vi.fn<(values: Sent) => Promise<string>>(() => Promise.resolve('Enviado.'));
  const user = userEvent.setup();
  render(<ExampleForm send={send} {...options} />);
  const submit = () => user.click(screen.getByRole('button', { name: 'Enviar' }));
  return { send, user, submit };
}

describe('useApiForm', () => {
  it('shows every field error at once, focuses the first and sends nothing', async () => {
    const { user, send, submit } = setUp();
    await user.type(screen.getByLabelText('E-mail'), 'ana@exemplo');
    await submit();

    expect(screen.getByLabelText('Nome')).toHaveAccessibleDescription(REQUIRED);
    expect(screen.getByLabelText('E-mail')).toHaveAccessibleDescription(INVALID_EMAIL);
    expect(screen.getByLabelText('Cidade')).not.toHaveAttribute('aria-invalid');
    expect(screen.getByLabelText('Nome')).toHaveFocus();
    expect(send).not.toHaveBeenCalled();
  });

  it('sends what the schema parsed: trimmed text, null for a blank optional field', async () => {
    const { user, send, submit } = setUp();
    await user.type(screen.getByLabelText('Nome'), '  Ana  ');
    await user.type(screen.getByLabelText('E-mail'), ' ana@exemplo.com ');
    await user.type(screen.getByLabelText('Cidade'), '   ');
    await submit();

    expect(send).toHaveBeenCalledExactlyOnceWith({ name: 'Ana', email: 'ana@exemplo.com', city: null });
    expect(await screen.findByRole('status')).toHaveTextContent('Enviado.');
  });

  it('leaves the errors as they are while the person types, until the next submit', async () => {
    const { user, send, submit } = setUp();
    await submit();
    await user.type(screen.getByLabelText('Nome'), 'Ana');
    expect(screen.getByLabelText('Nome')).toHaveAccessibleDescription(REQUIRED);

    await submit();
    expect(screen.getByLabelText('Nome')).not.toHaveAttribute('aria-invalid');
    expect(screen.getByLabelText('E-mail')).toHaveAccessibleDescription(REQUIRED);
    expect(send).not.toHaveBeenCalled();
  });

  it('shows a refusal that names a field under that field, and focuses it', async () => {
    const { user, submit } = setUp({
      send: refusedWith(refusal({ field: 'city', serverMessage: 'Cidade: use no máximo 15 caracteres.' })),
    });
    await user.type(screen.getByLabelText('Nome'), 'Ana');
    await user.type(screen.getByLabelText('E-mail'), 'ana@exemplo.com');
    await user.type(screen.getByLabelText('Cidade'), 'Vila Bela da Santíssima Trindade');
    await submit();

    const city = screen.getByLabelText('Cidade');
    await waitFor(() => expect(city).toHaveAccessibleDescription('Cidade: use no máximo 15 caracteres.'));
    expect(city).toHaveFocus();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows every problem a refusal lists under its own field at once, and the others in the alert', async () => {
    const { user, submit } = setUp({
      send: refusedWith(
        refusal({
          field: 'name',
          serverMessage: 'Nome: use no máximo 25 caracteres.',
          problems: [
            { field: 'name', message: 'Nome: use no máximo 25 caracteres.' },
            { field: 'merchant_city', message: 'Cidade: use no máximo 15 caracteres.' },
            { field: 'name', message: 'Um segundo problema do nome fica para depois.' },
            { field: 'lines', line: 3, message: 'Linha 3: valor inválido.' },
          ],
        }),
      ),
      fieldAliases: { merchant_city: 'city' },
    });
    await user.type(screen.getByLabelText('Nome'), 'Ana');
    await user.type(screen.getByLabelText('E-mail'), 'ana@exemplo.com');
    await submit();

    const name = screen.getByLabelText('Nome');
    await waitFor(() => expect(name).toHaveAccessibleDescription('Nome: use no máximo 25 caracteres.'));
    expect(screen.getByLabelText('Cidade')).toHaveAccessibleDescription('Cidade: use no máximo 15 caracteres.');
    expect(screen.getByLabelText('E-mail')).not.toHaveAttribute('aria-invalid');
    expect(await screen.findByRole('alert')).toHaveTextContent('Linha 3: valor inválido.');
    expect(name).toHaveFocus();
  });

  it('reads the other spellings of a field given as aliases', async () => {
    const { user, submit } = setUp({
      send: refusedWith(refusal({ field: 'merchant_city' })),
      fieldAliases: { merchant_city: 'city' },
    });
    await user.type(screen.getByLabelText('Nome'), 'Ana');
    await user.type(screen.getByLabelText('E-mail'), 'ana@exemplo.com');
    await submit();
    await waitFor(() => expect(screen.getByLabelText('Cidade')).toHaveAccessibleDescription('Mensagem do servidor.'));
  });

  it('puts a code listed in codeFields under its field in its own words, and keeps a null one in the alert', async () => {
    const send = vi
      .fn<(values: Sent) => Promise<string>>()
      .mockRejectedValueOnce(refusal({ status: 400, code: 'wrong-password', field: null }))
      .mockRejectedValueOnce(refusal({ status: 409, code: 'email-already-in-use', field: 'email' }));
    const { user, submit } = setUp({
      send,
      codeFields: {
        'wrong-password': { field: 'name', message: 'Nome conferido e recusado.' },
        'email-already-in-use': null,
      },
    });
    await user.type(screen.getByLabelText('Nome'), 'Ana');
    await user.type(screen.getByLabelText('E-mail'), 'ana@exemplo.com');

    await submit();
    await waitFor(() =>
      expect(screen.getByLabelText('Nome')).toHaveAccessibleDescription('Nome conferido e recusado.'),
    );

    await submit();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Este e-mail já está em uso. Entre na sua conta ou recupere a senha.',
    );
    expect(screen.getByLabelText('E-mail')).not.toHaveAttribute('aria-invalid');
    expect(screen.getByLabelText('Nome')).not.toHaveAttribute('aria-invalid');
  });

  it('puts a refusal about no field of the form in the alert', async () => {
    const { user, submit } = setUp({
      send: refusedWith(refusal({ field: 'crc', serverMessage: 'O código não fecha.' })),
    });
    await user.type(screen.getByLabelText('Nome'), 'Ana');
    await user.type(screen.getByLabelText('E-mail'), 'ana@exemplo.com');
    await submit();
    expect(await screen.findByRole('alert')).toHaveTextContent('O código não fecha.');
  });

  it('clears the alert and the last outcome on every submit, even one that fails its checks', async () => {
    const send = vi
      .fn<(values: Sent) => Promise<string>>()
      .mockResolvedValueOnce('Enviado.')
      .mockRejectedValueOnce(refusal({ status: 500, code: 'internal' }));
    const { user, submit } = setUp({ send });
    await user.type(screen.getByLabelText('Nome'), 'Ana');
    await user.type(screen.getByLabelText('E-mail'), 'ana@exemplo.com');
    await submit();
    expect(await screen.findByRole('status')).toHaveTextContent('Enviado.');

    await submit();
    expect(await screen.findByRole('alert')).toHaveTextContent('Algo deu errado do nosso lado.');
    expect(screen.queryByRole('status')).not.toBeInTheDocument();

    await user.clear(screen.getByLabelText('Nome'));
    await submit();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByLabelText('Nome')).toHaveAccessibleDescription(REQUIRED);
  });

  it('empties the fields listed in clearOnSuccess once the send succeeds', async () => {
    const { user, submit } = setUp({ clearOnSuccess: ['email', 'city'] });
    await user.type(screen.getByLabelText('Nome'), 'Ana');
    await user.type(screen.getByLabelText('E-mail'), 'ana@exemplo.com');
    await user.type(screen.getByLabelText('Cidade'), 'Recife');
    await submit();

    await screen.findByRole('status');
    expect(screen.getByLabelText('Nome')).toHaveValue('Ana');
    expect(screen.getByLabelText('E-mail')).toHaveValue('');
    expect(screen.getByLabelText('Cidade')).toHaveValue('');
  });
});
