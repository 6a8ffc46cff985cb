import { type RefObject, useLayoutEffect } from 'react';

/**
 * After a submit that failed validation (`attempt` changes), moves focus to the first invalid
 * field so keyboard and screen-reader users land on the problem. A layout effect: focus moves in
 * the same commit that marks the fields invalid, never a frame later.
 */
export function useFocusFirstInvalid(formRef: RefObject<HTMLFormElement | null>, attempt: number): void {
  useLayoutEffect(() => {
    if (attempt === 0) return;
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [formRef, attempt]);
}
