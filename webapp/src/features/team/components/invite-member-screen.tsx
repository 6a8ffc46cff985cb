import { type SubmitEvent, useRef, useState } from 'react';
import { Link } from 'react-router';

import { FormAlert } from '@/components/form-alert';
import { PageTitle } from '@/components/page-title';
import { SelectField } from '@/components/select-field';
import { TextField } from '@/components/text-field';
import { WorkspaceLine } from '@/components/workspace-line';
import { paths } from '@/config/paths';
import { useFocusFirstInvalid } from '@/hooks/use-focus-first-invalid';
import { asApiError, errorField } from '@/lib/api-error';
import { WORKSPACE_NOT_FOUND, errorMessage, isForbidden, isNotFound } from '@/lib/error-messages';
import { INVITABLE_ROLES, type InvitableRole, ROLE_DESCRIPTIONS, ROLE_LABELS } from '@/lib/roles';
import type { CurrentWorkspace } from '@/types/workspace';
import { checkEmail } from '@/utils/field-rules';

import { useInviteMemberMutation } from '../api/invite-member';

export const INVITE_FORBIDDEN = 'Seu papel nesta conta não permite convidar contas extras.';

const FIELDS = ['email', 'role'] as const;
type Field = (typeof FIELDS)[number];
type FieldErrors = Record<Field, string | null>;

const NO_ERRORS: FieldErrors = { email: null, role: null };

/** /painel/criar-conta-extra: invites someone by e-mail to the selected account, as manager or operator. */
export function InviteMemberScreen({ workspace }: { workspace: CurrentWorkspace }) {
  const [invite, { isLoading }] = useInviteMemberMutation();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<InvitableRole>('operator');
  const [errors, setErrors] = useState<FieldErrors>(NO_ERRORS);
  const [failure, setFailure] = useState<string | null>(null);
  const [invited, setInvited] = useState<{ email: string; role: InvitableRole } | null>(null);
  const [attempt, setAttempt] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);
  useFocusFirstInvalid(formRef, attempt);

  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found: FieldErrors = { ...NO_ERRORS, email: checkEmail(email) };
    setErrors(found);
    setFailure(null);
    setInvited(null);
    if (found.email) {
      setAttempt((count) => count + 1);
      return;
    }
    try {
      const member = await invite({ accountId: workspace.accountId, email: email.trim(), role }).unwrap();
      setInvited({ email: member.email, role: member.role });
      setEmail('');
    } catch (caught) {
      const error = asApiError(caught);
      const field = error.code === 'member-already-invited' ? 'email' : errorField(error, FIELDS);
      if (field !== null) {
        setErrors({ ...NO_ERRORS, [field]: errorMessage(error) });
        setAttempt((count) => count + 1);
      } else if (isForbidden(error)) setFailure(INVITE_FORBIDDEN);
      else if (isNotFound(error)) setFailure(WORKSPACE_NOT_FOUND);
      else setFailure(errorMessage(error));
    }
  };

  return (
    <section aria-labelledby="titulo-tela">
      <PageTitle>Criar conta extra</PageTitle>
      <h1 id="titulo-tela" tabIndex={-1}>
        Criar conta extra
      </h1>
      <WorkspaceLine workspace={workspace} />
      <p className="lead">
        A pessoa recebe um convite por e-mail e entra com o login dela. Você escolhe o que ela pode fazer nesta conta.
      </p>
      <form ref={formRef} noValidate onSubmit={(event) => void submit(event)} aria-label="Convidar conta extra">
        {failure ? <FormAlert>{failure}</FormAlert> : null}
        {invited ? (
          <div className="notice" role="status">
            <p>
              Convite enviado para <strong>{invited.email}</strong>, como {ROLE_LABELS[invited.role]}. A pessoa precisa
              abrir o link do e-mail para entrar nesta conta.
            </p>
          </div>
        ) : null}
        <TextField
          label="E-mail da pessoa"
          name="email"
          type="email"
          autoComplete="off"
          inputMode="email"
          autoCapitalize="off"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          error={errors.email}
        />
        <SelectField
          label="Papel"
          name="role"
          value={role}
          onChange={(event) => setRole(event.target.value as InvitableRole)}
          error={errors.role}
          hint={
            <ul className="role-list">
              {INVITABLE_ROLES.map((option) => (
                <li key={option}>
                  <strong>{ROLE_LABELS[option]}</strong>: {ROLE_DESCRIPTIONS[option]}.
                </li>
              ))}
            </ul>
          }
        >
          {INVITABLE_ROLES.map((option) => (
            <option key={option} value={option}>
              {ROLE_LABELS[option]}
            </option>
          ))}
        </SelectField>
        <p className="actions">
          <button type="submit" className="button" disabled={isLoading}>
            {isLoading ? 'Enviando convite…' : 'Enviar convite'}
          </button>
          <Link className="button secondary" to={paths.panel.extraAccounts}>
            Ver contas extras
          </Link>
        </p>
      </form>
    </section>
  );
}
