import { type ComponentPropsWithRef, type ReactNode, useId } from 'react';

type SelectProps = Omit<ComponentPropsWithRef<'select'>, 'id' | 'aria-invalid' | 'aria-describedby'>;

export interface SelectFieldProps extends SelectProps {
  label: string;
  error?: string | null;
  hint?: ReactNode;
}

/** A labelled `<select>` with its hint and error, wired up like `TextField`. */
export function SelectField({ label, error, hint, className, children, ...select }: SelectFieldProps) {
  const id = useId();
  const hintId = `${id}-dica`;
  const errorId = `${id}-erro`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={['field', error ? 'invalid' : null, className].filter(Boolean).join(' ')}>
      <label htmlFor={id}>{label}</label>
      <div className="field-control">
        <select id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...select}>
          {children}
        </select>
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
