import { type ComponentPropsWithRef, type ReactNode, useId } from 'react';

// With its ref, so a form (`useApiForm`'s `field`) can bind the input.
type InputProps = Omit<ComponentPropsWithRef<'input'>, 'id' | 'aria-invalid' | 'aria-describedby'>;

export interface TextFieldProps extends InputProps {
  label: string;
  /** The field's pt-BR error, shown under it and linked to it for screen readers. */
  error?: string | null;
  /** Help under the field (or a checklist), also linked to the input. */
  hint?: ReactNode;
  /** Something next to the input, e.g. a "Mostrar senha" button. */
  addon?: ReactNode;
}

/** A labelled input with its hint and error wired up for assistive technology. */
export function TextField({ label, error, hint, addon, className, ...input }: TextFieldProps) {
  const id = useId();
  const hintId = `${id}-dica`;
  const errorId = `${id}-erro`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={['field', error ? 'invalid' : null, className].filter(Boolean).join(' ')}>
      <label htmlFor={id}>{label}</label>
      <div className="field-control">
        <input id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...input} />
        {addon}
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
