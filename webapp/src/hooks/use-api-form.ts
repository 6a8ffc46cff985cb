import { zodResolver } from '@hookform/resolvers/zod';
import { type RefObject, type SubmitEvent, useCallback, useRef, useState } from 'react';
import {
  type Control,
  type DefaultValues,
  type FieldValues,
  type Path,
  type PathValue,
  type UseFormRegisterReturn,
  useForm,
} from 'react-hook-form';
import type { z } from 'zod';

import { type ApiError, asApiError, errorField } from '@/lib/api-error';
import { errorMessage } from '@/lib/error-messages';

import { useFocusFirstInvalid } from './use-focus-first-invalid';

/** A form's schema: what the fields hold (strings, a select's value) in, the request's values out. */
type FormSchema = z.ZodType<unknown, FieldValues>;

/** Where a refused request's message goes: under `field`, in its own words or the error map's. */
export interface ServerFieldRule<F extends string> {
  field: F;
  message?: string;
}

export interface ApiFormOptions<S extends FormSchema, R> {
  /** Checks every field at once on submit and parses the values into what `send` takes. */
  schema: S;
  /** Every field, as the form starts. Its keys are the names a server's `error.field` may use. */
  defaultValues: z.input<S>;
  /** Sends the parsed values. What it returns is the form's `outcome` until the next submit. */
  send: (values: z.output<S>) => Promise<R>;
  /** Fields emptied after a successful send (e.g. passwords). */
  clearOnSuccess?: readonly Path<z.input<S>>[];
  /**
   * Error codes shown under a given field whatever `error.field` says (e.g. `wrong-password` under
   * "Senha atual"); `null` keeps the code in the form's alert (e.g. an alert that carries links).
   */
  codeFields?: Readonly<Record<string, ServerFieldRule<Path<z.input<S>>> | null>>;
  /** Other spellings the server may use for a field (e.g. the BR Code's `merchant_name`). */
  fieldAliases?: Readonly<Record<string, Path<z.input<S>>>>;
}

/**
 * Thrown by a form's `send` to show several problems at once, each under its field (e.g. the list a
 * server check answered). Problems about a field the form does not have go to the form's alert.
 */
export class FieldProblems extends Error {
  readonly problems: readonly { field: string; message: string }[];

  constructor(problems: readonly { field: string; message: string }[]) {
    super(problems.map((problem) => problem.message).join(' '));
    this.name = 'FieldProblems';
    this.problems = problems;
  }
}

/** The props of a `TextField`, `PasswordField` or `SelectField` bound to one field of the form. */
export type BoundField<F extends string> = UseFormRegisterReturn<F> & { error: string | null };

export interface ApiForm<S extends FormSchema, R> {
  /** Spread on the `<form>`: its ref (for focus), `noValidate` and the submit handler. */
  formProps: {
    ref: RefObject<HTMLFormElement | null>;
    noValidate: true;
    onSubmit: (event: SubmitEvent<HTMLFormElement>) => void;
  };
  /** Binds an input to the field `name`: value, events and its error. */
  field: <F extends Path<z.input<S>>>(name: F) => BoundField<F>;
  /** The error under the field `name`, if any (for inputs bound another way, e.g. a masked one). */
  errorOf: (name: Path<z.input<S>>) => string | null;
  /** Sets a field's value from code (a masked input's digits, defaults that arrive late). */
  setValue: <F extends Path<z.input<S>>>(name: F, value: PathValue<z.input<S>, F>) => void;
  getValues: <F extends Path<z.input<S>>>(name: F) => PathValue<z.input<S>, F>;
  /** For `useWatch`, when something on screen follows a field as it is typed. */
  control: Control<z.input<S>, unknown, z.output<S>>;
  /** Why the last send failed, when no field was to blame: for the form's alert. */
  failure: ApiError | null;
  /** What the last successful send returned; cleared when the form is submitted again. */
  outcome: R | null;
}

/**
 * The one way to build a form that sends a request to the API (react-hook-form + zod).
 *
 * - On submit every field is checked at once and every problem shows under its field; nothing is
 *   sent while one remains. Errors stay as they are until the next submit (no checking while typing).
 * - A refusal about a field (`error.field`, or a code in `codeFields`) shows under that field;
 *   a refusal listing several (`error.problems`) shows each under its field, as a thrown
 *   `FieldProblems` does; any other goes to `failure`, for the form's alert.
 * - After a submit with errors, focus moves to the first field in error.
 * - `failure` and `outcome` belong to the last submit: each new submit clears them.
 */
export function useApiForm<S extends FormSchema, R = true>({
  schema,
  defaultValues,
  send,
  clearOnSuccess = [],
  codeFields = {},
  fieldAliases = {},
}: ApiFormOptions<S, R>): ApiForm<S, R> {
  type Values = z.input<S>;
  const { register, handleSubmit, formState, setError, resetField, setValue, getValues, control } = useForm<
    Values,
    unknown,
    z.output<S>
  >({
    // The schemas have no async checks: parsing in step keeps the errors in the submit's own turn.
    resolver: zodResolver(schema, undefined, { mode: 'sync' }),
    defaultValues: defaultValues as DefaultValues<Values>,
    mode: 'onSubmit',
    reValidateMode: 'onSubmit',
    // Focus follows the page (`useFocusFirstInvalid`), so a field without a DOM ref (a masked input)
    // is focused too.
    shouldFocusError: false,
  });
  const [failure, setFailure] = useState<ApiError | null>(null);
  const [outcome, setOutcome] = useState<R | null>(null);
  const [serverRefusals, setServerRefusals] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);
  // Keyed on what react-hook-form renders together with the errors (the submit count), so the
  // fields are already marked invalid when focus moves.
  useFocusFirstInvalid(formRef, formState.submitCount + serverRefusals);

  const fieldNames = Object.keys(defaultValues) as Path<Values>[];
  const fieldOf = (error: ApiError): ServerFieldRule<Path<Values>> | null => {
    if (Object.hasOwn(codeFields, error.code)) return codeFields[error.code] ?? null;
    const field = errorField(error, fieldNames, fieldAliases);
    return field === null ? null : { field };
  };

  /**
   * Shows each problem under its field (the first of a field is the one to fix first); problems
   * about a field the form does not have go to the alert, as `refusal` says or as a 422.
   */
  const showProblems = (problems: readonly { field: string; message: string }[], refusal: ApiError | null) => {
    const aliases: Readonly<Record<string, string>> = fieldAliases;
    const leftOver: string[] = [];
    const shown = new Set<string>();
    for (const problem of problems) {
      const name = aliases[problem.field] ?? problem.field;
      if (!(fieldNames as string[]).includes(name)) {
        leftOver.push(problem.message);
      } else if (!shown.has(name)) {
        shown.add(name);
        setError(name as Path<Values>, { type: 'server', message: problem.message });
      }
    }
    if (leftOver.length > 0) {
      setFailure({
        status: refusal?.status ?? 422,
        code: refusal?.code ?? 'invalid-argument',
        serverMessage: leftOver.join(' '),
        retryAfterSeconds: null,
        field: null,
      });
    }
    setServerRefusals((count) => count + 1);
  };

  const sendValid = async (values: z.output<S>) => {
    try {
      const result = await send(values);
      setOutcome(() => result);
      for (const name of clearOnSuccess) resetField(name);
    } catch (caught) {
      if (caught instanceof FieldProblems) {
        showProblems(caught.problems, null);
        return;
      }
      const error = asApiError(caught);
      if (!Object.hasOwn(codeFields, error.code) && error.problems !== undefined && error.problems.length > 0) {
        // The server listed every problem at once: each goes under its field, as the form's own.
        showProblems(error.problems, error);
        return;
      }
      const rule = fieldOf(error);
      if (rule === null) {
        setFailure(error);
        return;
      }
      setError(rule.field, { type: 'server', message: rule.message ?? errorMessage(error) });
      setServerRefusals((count) => count + 1);
    }
  };

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    setFailure(null);
    setOutcome(null);
    void handleSubmit(sendValid)(event);
  };

  // Stable, as react-hook-form's own: effects that fill fields from code run when their inputs change.
  const setValueOf = useCallback(
    <F extends Path<Values>>(name: F, value: PathValue<Values, F>) => setValue(name, value),
    [setValue],
  );
  const valueOf = useCallback(<F extends Path<Values>>(name: F) => getValues(name), [getValues]);

  const errorOf = (name: Path<Values>): string | null => {
    const error: unknown = formState.errors[name];
    if (typeof error !== 'object' || error === null || !('message' in error)) return null;
    return typeof error.message === 'string' && error.message !== '' ? error.message : null;
  };

  return {
    formProps: { ref: formRef, noValidate: true, onSubmit },
    field: (name) => ({ ...register(name), error: errorOf(name) }),
    errorOf,
    setValue: setValueOf,
    getValues: valueOf,
    control,
    failure,
    outcome,
  };
}
