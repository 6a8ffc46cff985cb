import { useId } from 'react';

export interface FileFieldProps {
  label: string;
  accept: string;
  hint: string;
  /** The chosen file's name, or '' for none. */
  fileName: string;
  error: string | null;
  onChoose: (file: File | null) => void;
}

/** A labelled file input with its hint and error, wired up like `TextField`. */
export function FileField({ label, accept, hint, fileName, error, onChoose }: FileFieldProps) {
  const id = useId();
  const describedBy = [`${id}-dica`, error ? `${id}-erro` : null].filter(Boolean).join(' ');
  return (
    <div className={['field', error ? 'invalid' : null].filter(Boolean).join(' ')}>
      <label htmlFor={id}>{label}</label>
      <div className="field-control">
        <input
          id={id}
          type="file"
          accept={accept}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          onChange={(event) => onChoose(event.target.files?.[0] ?? null)}
        />
      </div>
      <div id={`${id}-dica`} className="hint">
        {fileName === '' ? hint : `Escolhido: ${fileName}`}
      </div>
      {error ? (
        <p id={`${id}-erro`} className="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
