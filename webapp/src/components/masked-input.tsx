import { MaskInput } from 'maska';
import { type ComponentPropsWithoutRef, useEffect, useEffectEvent, useRef } from 'react';

import { MASK_PRESETS, type MaskKind, type MaskedValue, maskInputOptions } from '@/lib/masks';

type InputProps = Omit<ComponentPropsWithoutRef<'input'>, 'type' | 'inputMode' | 'value' | 'onChange'>;

export interface MaskedInputProps extends InputProps {
  kind: MaskKind;
  /** Called on every change with the masked text, the bare characters, and whether it is complete. */
  onValueChange?: (value: MaskedValue) => void;
}

/**
 * An input formatted as the user types (phone, CPF, CNPJ, CEP). maska edits the DOM value itself
 * and keeps the cursor in place, so the input is uncontrolled: pass `defaultValue`, read
 * `onValueChange`.
 */
export function MaskedInput({ kind, onValueChange, placeholder, autoComplete, ...input }: MaskedInputProps) {
  const ref = useRef<HTMLInputElement>(null);
  const preset = MASK_PRESETS[kind];
  const report = useEffectEvent((value: MaskedValue) => onValueChange?.(value));

  useEffect(() => {
    const element = ref.current;
    if (element === null) return;
    const mask = new MaskInput(
      element,
      maskInputOptions(kind, (value) => report(value)),
    );
    return () => mask.destroy();
  }, [kind]);

  return (
    <input
      ref={ref}
      type="text"
      inputMode={preset.inputMode}
      autoComplete={autoComplete ?? ('autoComplete' in preset ? preset.autoComplete : 'off')}
      autoCapitalize={'upperCase' in preset ? 'characters' : 'off'}
      placeholder={placeholder ?? preset.placeholder}
      spellCheck={false}
      {...input}
    />
  );
}
