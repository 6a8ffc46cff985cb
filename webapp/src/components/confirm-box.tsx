import { type ReactNode, useEffect, useId, useRef } from 'react';

export interface ConfirmBoxProps {
  /** What will happen, naming what is ended or erased. */
  children: ReactNode;
  /** The explicit second step, e.g. "Sim, encerrar a sessão". */
  confirmLabel: string;
  /** Shown on the button while the request runs. */
  busyLabel: string;
  busy: boolean;
  /** What a `button` does; a `submit` leaves it to the form. */
  onConfirm?: () => void;
  onCancel: () => void;
  /** The way back, e.g. "Manter". */
  cancelLabel?: string;
  /** `submit` when the box sits inside the form that does the deed. */
  confirmType?: 'button' | 'submit';
}

/**
 * The second step of a destructive action: says what will be lost and asks for an explicit yes.
 * It takes focus when it appears and scrolls into view, so on a phone the question is where the
 * eye and the thumb already are.
 */
export function ConfirmBox({
  children,
  confirmLabel,
  busyLabel,
  busy,
  onConfirm,
  onCancel,
  cancelLabel = 'Manter',
  confirmType = 'button',
}: ConfirmBoxProps) {
  const questionId = useId();
  const confirmRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const button = confirmRef.current;
    button?.focus();
    // jsdom has no scrollIntoView; browsers do.
    const box = button?.closest('.confirm');
    if (box && 'scrollIntoView' in box) box.scrollIntoView({ block: 'nearest' });
  }, []);
  return (
    <div className="confirm" role="group" aria-labelledby={questionId}>
      <div id={questionId}>{children}</div>
      <p className="actions">
        <button
          ref={confirmRef}
          type={confirmType}
          className="button danger"
          disabled={busy}
          onClick={confirmType === 'button' ? onConfirm : undefined}
        >
          {busy ? busyLabel : confirmLabel}
        </button>
        <button type="button" className="button secondary" onClick={onCancel}>
          {cancelLabel}
        </button>
      </p>
    </div>
  );
}
