import { Link } from 'react-router';
import { z } from 'zod';

import { FormAlert } from '@/components/form-alert';
import { FormOutcome } from '@/components/form-outcome';
import { PageTitle } from '@/components/page-title';
import { SelectField } from '@/components/select-field';
import { TextField } from '@/components/text-field';
import { WorkspaceLine } from '@/components/workspace-line';
import { paths } from '@/config/paths';
import { useApiForm } from '@/hooks/use-api-form';
import type { ApiError } from '@/lib/api-error';
import { WORKSPACE_NOT_FOUND, errorMessage, isForbidden, isNotFound } from '@/lib/error-messages';
import { INVITABLE_ROLES, ROLE_DESCRIPTIONS, ROLE_LABELS, roleLabel } from '@/lib/roles';
import type { CurrentWorkspace } from '@/types/workspace';
import { emailAddress } from '@/utils/field-rules';

import { useInviteMemberMutation } from '../api/invite-member';

export const INVITE_FORBIDDEN = 'Seu papel nesta conta não permite convidar contas extras.';

const inviteSchema = z.object({ email: emailAddress(), role: z.enum(INVITABLE_ROLES) });

function failureMessage(error: ApiError): string {
  if (isForbidden(error)) return INVITE_FORBIDDEN;
  if (isNotFound(error)) return WORKSPACE_NOT_FOUND;
  return errorMessage(error);
}

/**
 * /painel/criar-conta-extra: invites someone by e-mail to the selected account, as manager or operator.
 * Only the account's owner invites (`domain::team`: managing members is the owner's right alone):
 * anyone else is told so instead of a form the server would refuse.
 */
export function InviteMemberScreen({ workspace }: { workspace: CurrentWorkspace }) {
  return (
    <section aria-labelledby="titulo-tela">
      <PageTitle>Criar conta extra</PageTitle>
      <h1 id="titulo-tela" tabIndex={-1}>
        Criar conta extra
      </h1>
      <WorkspaceLine workspace={workspace} />
      {workspace.role === 'owner' ? (
        <InviteMemberForm accountId={workspace.accountId} />
      ) : (
        <p className="notice">
          Só o titular desta conta convida contas extras. Você está nela como {roleLabel(workspace.role).toLowerCase()}:
          se alguém precisa entrar, peça ao titular.
        </p>
      )}
    </section>
  );
}

function InviteMemberForm({ accountId }: { accountId: string }) {
  const [invite, { isLoading }] = useInviteMemberMutation();
  const form = useApiForm({
    schema: inviteSchema,
    defaultValues: { email: '', role: 'operator' },
    send: async (invitation) => {
      const member = await invite({ accountId, ...invitation }).unwrap();
      return { email: member.email, role: member.role };
    },
    clearOnSuccess: ['email'],
    codeFields: { 'member-already-invited': { field: 'email' } },
  });

  return (
    <>
      <p className="lead">
        A pessoa recebe um convite por e-mail e entra com o login dela. Você escolhe o que ela pode fazer nesta conta.
      </p>
      <form {...form.formProps} aria-label="Convidar conta extra">
        {form.failure ? <FormAlert takeFocus>{failureMessage(form.failure)}</FormAlert> : null}
        {form.outcome ? (
          <FormOutcome key={form.outcome.email}>
            <p>
              Convite enviado para <strong>{form.outcome.email}</strong>, como {ROLE_LABELS[form.outcome.role]}. A
              pessoa precisa abrir o link do e-mail para entrar nesta conta.
            </p>
          </FormOutcome>
        ) : null}
        <TextField
          label="E-mail da pessoa"
          type="email"
          autoComplete="off"
          inputMode="email"
          autoCapitalize="off"
          {...form.field('email')}
        />
        <SelectField
          label="Papel"
          {...form.field('role')}
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
    </>
  );
}
