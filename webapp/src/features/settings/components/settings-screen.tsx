import type { ReactNode } from 'react';

import { FormAlert } from '@/components/form-alert';
import { PageStatus } from '@/components/page-status';
import { PageTitle } from '@/components/page-title';
import { asApiError } from '@/lib/api-error';
import { errorMessage } from '@/lib/error-messages';

import { useGetSettingsQuery } from '../api/get-settings';
import { ChangeEmailForm } from './change-email-form';
import { DeleteAccountForm } from './delete-account-form';
import { PhotoUpload } from './photo-upload';
import { ProfileForm } from './profile-form';

export interface SettingsScreenProps {
  /** The change-password form (the auth feature owns passwords and their policy). */
  passwordSection: ReactNode;
  /** The signed-in devices (the session feature owns sessions). */
  sessionsSection: ReactNode;
}

/** /painel/configuracoes: the signed-in person's own account, always (whatever workspace is selected). */
export function SettingsScreen({ passwordSection, sessionsSection }: SettingsScreenProps) {
  const { data: settings, error, isLoading, refetch } = useGetSettingsQuery();

  let body: ReactNode;
  if (settings !== undefined) {
    body = (
      <>
        <section aria-labelledby="config-dados">
          <h2 id="config-dados">Seus dados</h2>
          <ProfileForm settings={settings} />
        </section>
        <section aria-labelledby="config-foto">
          <h2 id="config-foto">Foto</h2>
          <PhotoUpload photoURL={settings.photoURL} />
        </section>
        <section aria-labelledby="config-senha">
          <h2 id="config-senha">Senha</h2>
          {passwordSection}
        </section>
        <section aria-labelledby="config-email">
          <h2 id="config-email">E-mail</h2>
          <ChangeEmailForm email={settings.email} emailVerified={settings.emailVerified} />
        </section>
        <section aria-labelledby="config-aparelhos">
          <h2 id="config-aparelhos">Aparelhos conectados</h2>
          {sessionsSection}
        </section>
        <section aria-labelledby="config-excluir" className="danger-zone">
          <h2 id="config-excluir">Excluir conta</h2>
          <DeleteAccountForm email={settings.email} />
        </section>
      </>
    );
  } else if (isLoading) {
    body = <PageStatus>Carregando suas configurações…</PageStatus>;
  } else {
    body = (
      <>
        <FormAlert>
          Não foi possível carregar suas configurações. {error === undefined ? null : errorMessage(asApiError(error))}
        </FormAlert>
        <button type="button" className="button" onClick={() => void refetch()}>
          Tentar de novo
        </button>
      </>
    );
  }

  return (
    <section aria-labelledby="titulo-tela">
      <PageTitle>Configurações</PageTitle>
      <h1 id="titulo-tela" tabIndex={-1}>
        Configurações
      </h1>
      {body}
    </section>
  );
}
