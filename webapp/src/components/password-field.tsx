import { useState } from 'react';

import { TextField, type TextFieldProps } from './text-field';

export interface PasswordFieldProps extends Omit<TextFieldProps, 'type' | 'addon' | 'autoComplete'> {
  autoComplete: 'current-password' | 'new-password';
}

/** A password input with a "Mostrar senha" toggle: typing blind on a phone keyboard causes most typos. */
export function PasswordField({ autoComplete, ...field }: PasswordFieldProps) {
  const [visible, setVisible] = useState(false);
  return (
    <TextField
      type={visible ? 'text' : 'password'}
      autoComplete={autoComplete}
      autoCapitalize="off"
      spellCheck={false}
      {...field}
      addon={
        // A toggle keeps one label; aria-pressed says whether the password is showing.
        <button
          type="button"
          className="button secondary small toggle"
          aria-pressed={visible}
          onClick={() => setVisible(!visible)}
        >
          Mostrar senha
        </button>
      }
    />
  );
}
