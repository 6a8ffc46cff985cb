import { type ReactNode, useState } from 'react';

import { TextField } from './text-field';

export interface PasswordFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  autoComplete: 'current-password' | 'new-password';
  error?: string | null;
  hint?: ReactNode;
  name?: string;
}

/** A password input with a "Mostrar senha" toggle: typing blind on a phone keyboard causes most typos. */
export function PasswordField({
  label,
  value,
  onChange,
  autoComplete,
  error,
  hint,
  name = 'password',
}: PasswordFieldProps) {
  const [visible, setVisible] = useState(false);
  return (
    <TextField
      label={label}
      name={name}
      type={visible ? 'text' : 'password'}
      autoComplete={autoComplete}
      autoCapitalize="off"
      spellCheck={false}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      error={error}
      hint={hint}
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
