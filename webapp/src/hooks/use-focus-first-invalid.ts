import { type RefObject, useEffect } from 'react';

/**
 * After a submit that failed validation (`attempt` changes), moves focus to the first invalid
 * field so keyboard and screen-reader users land on the problem.
 */
export function useFocusFirstInvalid(formRef: RefObject<HTMLFormElement | null>, attempt: number): void {
  useEffect(() => {
    if (attempt === 0) return;
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [formRef, attempt]);
}
