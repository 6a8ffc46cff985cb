import { type ChangeEvent, useCallback, useEffect, useRef } from 'react';
import { z } from 'zod';

import type { BoundField } from '@/hooks/use-api-form';
import type { KeyChoice } from '@/types/pix-key';
import { REQUIRED } from '@/utils/field-rules';

import { keyChoiceName } from './key-choice-name';
import { SelectField } from './select-field';
import { TextField } from './text-field';

/** The select's value for "I will type the key". */
export const TYPED_KEY = '';

/**
 * A form's key fields: a registered key's id, or (`TYPED_KEY`) the key typed, which must then be
 * given. Joined to a form's schema with `.and(keySchema)`: an intersection checks both sides, so
 * a missing key shows with every other problem at once.
 */
export const keySchema = z
  .object({ keyId: z.string(), pixKey: z.string().trim() })
  .refine((values) => values.keyId !== TYPED_KEY || values.pixKey !== '', { error: REQUIRED, path: ['pixKey'] });

/** What the server takes: the registered key's id, or the typed key, never both. */
export function chosenKey<V extends { keyId: string; pixKey: string }>({ keyId, pixKey, ...rest }: V) {
  return keyId === TYPED_KEY ? { ...rest, keyId: null, pixKey } : { ...rest, keyId, pixKey: null };
}

/** The key a form starts with: the default one, else the first. */
export function preferredKey(keys: readonly KeyChoice[] | undefined): KeyChoice | undefined {
  return keys?.find((key) => key.isDefault) ?? keys?.[0];
}

/**
 * Chooses the preferred key once, when the account's keys arrive (they may come after the form is on
 * screen), unless a key was already typed or chosen. `choose` sets the form's values.
 */
export function usePreselectedKey(
  keys: readonly KeyChoice[] | undefined,
  untouched: () => boolean,
  choose: (key: KeyChoice) => void,
) {
  const done = useRef(false);
  useEffect(() => {
    const key = preferredKey(keys);
    if (done.current || key === undefined) return;
    done.current = true;
    if (untouched()) choose(key);
  }, [keys, untouched, choose]);
}

/** The fields of a form that `useRecipientFields` fills (every code form has them). */
type RecipientField = 'keyId' | 'pixKey' | 'merchantName' | 'merchantCity';

/** The part of a form (`useApiForm`'s) that `useRecipientFields` reads and fills. */
export interface RecipientForm {
  getValues: (name: RecipientField) => string;
  setValue: (name: RecipientField, value: string) => void;
}

/**
 * The recipient a code form starts with: the preferred registered key, and the name and city saved
 * as "Dados de quem recebe" (the settings promise they come pre-filled; in someone else's account,
 * that account's defaults; undefined while they load). A key's holder name fills the name only when
 * no name is saved. The keys and the defaults may arrive after the form is on screen, in either
 * order: neither replaces what the person typed. Returns what `KeyPicker`'s `onChosen` takes.
 */
export function useRecipientFields(
  { getValues, setValue }: RecipientForm,
  keys: readonly KeyChoice[] | undefined,
  defaultMerchantName: string | null | undefined,
  defaultMerchantCity: string | null | undefined,
) {
  // The name the form itself put in (a key's holder name), which a saved name may still replace.
  const filledName = useRef('');
  const savedName = defaultMerchantName?.trim() ? defaultMerchantName : null;
  useEffect(() => {
    const name = getValues('merchantName');
    if (savedName && (name === '' || name === filledName.current)) setValue('merchantName', savedName);
    if (defaultMerchantCity && getValues('merchantCity') === '') setValue('merchantCity', defaultMerchantCity);
  }, [savedName, defaultMerchantCity, getValues, setValue]);
  const chooseKey = useCallback(
    (key: KeyChoice | null) => {
      if (key === null) return;
      setValue('keyId', key.id);
      if (key.holderName && savedName === null) {
        filledName.current = key.holderName;
        setValue('merchantName', key.holderName);
      }
    },
    [savedName, setValue],
  );
  const untouched = useCallback(() => getValues('pixKey') === '', [getValues]);
  usePreselectedKey(keys, untouched, chooseKey);
  return chooseKey;
}

export interface KeyPickerProps {
  /** The account's registered keys (undefined while loading or when they cannot be read). */
  keys: readonly KeyChoice[] | undefined;
  /** The select, bound to the form's `keyId` (`TYPED_KEY` for a typed key). */
  keyId: BoundField<string>;
  /** The typed key, bound to the form's `pixKey`. */
  pixKey: BoundField<string>;
  /** The `keyId` now (watched). */
  chosen: string;
  /** Called when the person picks another key (null: they will type one), after the form saw it. */
  onChosen?: (key: KeyChoice | null) => void;
  /** Under the typed key's field. */
  typedHint?: string;
}

/** A registered key of the account, or a typed one: the select shows only when there are keys. */
export function KeyPicker({
  keys,
  keyId,
  pixKey,
  chosen,
  onChosen,
  typedHint = 'CPF, CNPJ, e-mail, celular ou chave aleatória.',
}: KeyPickerProps) {
  const registered = keys ?? [];
  const typed = (
    <TextField
      label={registered.length > 0 ? 'Chave Pix digitada' : 'Chave Pix'}
      autoCapitalize="off"
      spellCheck={false}
      {...pixKey}
      hint={typedHint}
    />
  );
  if (registered.length === 0) return typed;
  const current = registered.find((key) => key.id === chosen);
  const onChange = (event: ChangeEvent<HTMLSelectElement>) => {
    void keyId.onChange(event);
    onChosen?.(registered.find((key) => key.id === event.target.value) ?? null);
  };
  return (
    <>
      <SelectField
        label="Chave Pix"
        {...keyId}
        // A refusal about the typed key while a registered one is chosen (its field is hidden) is
        // about the key sent: it shows here rather than nowhere.
        error={keyId.error ?? (current ? pixKey.error : null)}
        onChange={onChange}
        hint={
          current
            ? current.holderName
              ? `Em nome de ${current.holderName}, como o banco mostra a quem paga.`
              : 'Chave cadastrada nesta conta.'
            : 'Digite a chave abaixo.'
        }
      >
        {registered.map((key) => (
          <option key={key.id} value={key.id}>
            {keyChoiceName(key)}
          </option>
        ))}
        <option value={TYPED_KEY}>Digitar outra chave</option>
      </SelectField>
      {current ? null : typed}
    </>
  );
}
