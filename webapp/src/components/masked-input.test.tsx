import { render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';

import { MaskedInput } from './masked-input';

function renderField(kind: 'phone' | 'cpf' | 'cnpj' | 'cep') {
  const onValueChange = vi.fn();
  render(
    <>
      <label htmlFor="campo">Campo</label>
      <MaskedInput id="campo" kind={kind} onValueChange={onValueChange} />
    </>,
  );
  return { input: screen.getByLabelText<HTMLInputElement>('Campo'), onValueChange, user: userEvent.setup() };
}

describe('MaskedInput', () => {
  it('formats a phone number while it is typed and reports the digits', async () => {
    const { input, onValueChange, user } = renderField('phone');
    await user.type(input, '11912345678');
    expect(input).toHaveValue('(11) 91234-5678');
    expect(onValueChange).toHaveBeenLastCalledWith({
      masked: '(11) 91234-5678',
      unmasked: '11912345678',
      completed: true,
    });
  });

  it('offers the numeric keyboard for a CPF and ignores letters', async () => {
    const { input, user } = renderField('cpf');
    expect(input).toHaveAttribute('inputmode', 'numeric');
    await user.type(input, '123a456b78909');
    expect(input).toHaveValue('123.456.789-09');
  });

  it('takes letters in an alphanumeric CNPJ and shows them upper-case', async () => {
    const { input, onValueChange, user } = renderField('cnpj');
    expect(input).toHaveAttribute('autocapitalize', 'characters');
    await user.type(input, '12abc34501de35');
    expect(input).toHaveValue('12.ABC.345/01DE-35');
    expect(onValueChange).toHaveBeenLastCalledWith(
      expect.objectContaining({ unmasked: '12ABC34501DE35', completed: true }),
    );
  });

  it('formats a CEP and suggests postal-code autofill', async () => {
    const { input, user } = renderField('cep');
    expect(input).toHaveAttribute('autocomplete', 'postal-code');
    await user.type(input, '01310100');
    expect(input).toHaveValue('01310-100');
  });

  it('lets the user delete back through the separator', async () => {
    const { input, user } = renderField('cep');
    await user.type(input, '013101');
    await user.type(input, '{Backspace}');
    expect(input).toHaveValue('01310-');
    await user.type(input, '{Backspace}{Backspace}');
    expect(input).toHaveValue('0131');
  });
});
