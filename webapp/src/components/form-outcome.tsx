import { type ReactNode, useLayoutEffect, useRef } from 'react';

export interface FormOutcomeProps {
  children: ReactNode;
  /** `status` for what was done, `alert` for a refusal no field is to blame for. */
  kind?: 'status' | 'alert';
  /** The element: a `div` (the default) holds paragraphs and links, a `p` one sentence. */
  as?: 'div' | 'p';
}

/**
 * What a form step led to, shown where it happened and taking the focus once, when it appears: on
 * a phone the person tapped a button at the bottom of the screen, and the answer (or the next
 * link) must be where their eyes and thumb are, not above the fold. A layout effect: the focus
 * moves in the same commit that shows the outcome, never a frame later (a passive effect after an
 * answer that arrived outside any event could run after the first look at the page).
 */
export function FormOutcome({ children, kind = 'status', as: Tag = 'div' }: FormOutcomeProps) {
  const ref = useRef<HTMLElement>(null);
  useLayoutEffect(() => {
    const node = ref.current;
    if (node === null) return;
    node.focus();
    // jsdom has no scrollIntoView; browsers do.
    if ('scrollIntoView' in node) node.scrollIntoView({ block: 'nearest' });
  }, []);
  return (
    <Tag
      ref={ref as React.RefObject<never>}
      tabIndex={-1}
      className={kind === 'alert' ? 'alert error' : 'notice'}
      role={kind}
    >
      {children}
    </Tag>
  );
}
