import { type ReactNode, useId } from 'react';

import { MaskedInput, type MaskedInputProps } from './masked-input';

export interface MaskedFieldProps extends Omit<MaskedInputProps, 'id' | 'aria-invalid' | 'aria-describedby'> {
  label: string;
  error?: string | null;
  hint?: ReactNode;
}

/** A labelled masked input (phone, CPF…) with its hint and error, wired up like `TextField`. */
export function MaskedField({ label, error, hint, className, ...input }: MaskedFieldProps) {
  const id = useId();
  const hintId = `${id}-dica`;
  const errorId = `${id}-erro`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={['field', error ? 'invalid' : null, className].filter(Boolean).join(' ')}>
      <label htmlFor={id}>{label}</label>
      <div className="field-control">
        <MaskedInput id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...input} />
      </div>
      {hint ? (
        <div id={hintId} className="hint">
          {hint}
        </div>
      ) : null}
      {error ? (
        <p id={errorId} className="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
