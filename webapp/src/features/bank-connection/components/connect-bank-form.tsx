import { useRef } from 'react';
import { useWatch } from 'react-hook-form';
import { z } from 'zod';

import { FormAlert } from '@/components/form-alert';
import { SelectField } from '@/components/select-field';
import { TextField } from '@/components/text-field';
import { FieldProblems, useApiForm } from '@/hooks/use-api-form';
import { REQUIRED, optionalText, requiredText } from '@/utils/field-rules';

import {
  type BankConnection,
  type BankProfile,
  type ConnectBankRequest,
  useConnectBankMutation,
} from '../api/bank-connections';
import { MAX_CERTIFICATE_BYTES, isPemName, readUpload } from '../utils/read-file';
import { bankFailureMessage } from './failure-message';
import { FileField } from './file-field';

export const CHOOSE_CERTIFICATE = 'Escolha o arquivo do certificado que o banco entregou.';
export const CHOOSE_PRIVATE_KEY =
  'Este arquivo traz só o certificado: escolha também o arquivo da chave privada (.key ou .pem).';
export const FILE_TOO_LARGE = 'O arquivo passa de 64 KB: confira se é o certificado que o banco entregou.';

const formSchema = z.object({
  bank: requiredText(),
  environment: z.enum(['producao', 'homologacao']),
  clientId: requiredText(),
  clientSecret: z.string().trim(),
  certificate: z.string().trim().min(1, { error: CHOOSE_CERTIFICATE, abort: true }),
  certificateKey: optionalText(),
  certificatePassword: z.string(),
  extra: optionalText(),
  apiBaseUrl: optionalText(),
  tokenUrl: optionalText(),
});

type FormValues = z.output<typeof formSchema>;

export interface ConnectBankFormProps {
  accountId: string;
  keyId: string;
  banks: readonly BankProfile[];
  /** Shown when replacing the credentials of a standing connection. */
  current?: BankConnection;
  onConnected: (connection: BankConnection) => void;
  onCancel?: () => void;
}

/** Client id, secret and certificate of the key's bank: tested at the bank before anything is kept. */
export function ConnectBankForm({ accountId, keyId, banks, current, onConnected, onCancel }: ConnectBankFormProps) {
  const [connect, { isLoading }] = useConnectBankMutation();
  const files = useRef<{ certificate: File | null; certificateKey: File | null }>({
    certificate: null,
    certificateKey: null,
  });
  const form = useApiForm({
    schema: formSchema,
    defaultValues: {
      bank: current?.bank ?? banks[0]?.id ?? '',
      environment: current?.environment ?? 'producao',
      clientId: '',
      clientSecret: '',
      certificate: '',
      certificateKey: '',
      certificatePassword: '',
      extra: '',
      apiBaseUrl: '',
      tokenUrl: '',
    },
    send: async (values: FormValues) => {
      const certificate = files.current.certificate;
      const certificateKey = files.current.certificateKey;
      const problems = [];
      const chosen = banks.find((bank) => bank.id === values.bank);
      if (chosen?.usesClientSecret !== false && values.clientSecret === '')
        problems.push({ field: 'clientSecret', message: REQUIRED });
      if (certificate === null) problems.push({ field: 'certificate', message: CHOOSE_CERTIFICATE });
      else if (certificate.size > MAX_CERTIFICATE_BYTES)
        problems.push({ field: 'certificate', message: FILE_TOO_LARGE });
      if (certificateKey !== null && certificateKey.size > MAX_CERTIFICATE_BYTES)
        problems.push({ field: 'certificateKey', message: FILE_TOO_LARGE });
      if (problems.length > 0 || certificate === null) throw new FieldProblems(problems);
      const request: ConnectBankRequest = {
        bank: values.bank,
        environment: values.environment,
        clientId: values.clientId,
        clientSecret: values.clientSecret,
        certificate: await readUpload(certificate),
        certificateKey:
          certificateKey === null || !isPemName(certificate.name) ? null : await readUpload(certificateKey),
        certificatePassword: values.certificatePassword === '' ? null : values.certificatePassword,
        extra: values.extra,
        apiBaseUrl: values.apiBaseUrl,
        tokenUrl: values.tokenUrl,
      };
      const connected = await connect({ accountId, keyId, request }).unwrap();
      onConnected(connected);
      return connected;
    },
    clearOnSuccess: ['clientSecret', 'certificatePassword'],
  });
  const bankId = useWatch({ control: form.control, name: 'bank' });
  const certificateName = useWatch({ control: form.control, name: 'certificate' });
  const certificateKeyName = useWatch({ control: form.control, name: 'certificateKey' });
  const profile = banks.find((bank) => bank.id === bankId);
  const pem = certificateName !== '' && isPemName(certificateName);

  return (
    <form {...form.formProps} aria-label="Conectar banco" className="connect-bank-form">
      {form.failure ? <FormAlert takeFocus>{bankFailureMessage(form.failure)}</FormAlert> : null}
      <SelectField label="Banco" {...form.field('bank')}>
        {banks.map((bank) => (
          <option key={bank.id} value={bank.id}>
            {bank.name}
          </option>
        ))}
      </SelectField>
      {profile ? <p className="hint bank-instructions">{profile.instructions}</p> : null}
      <fieldset className="field">
        <legend>Ambiente</legend>
        {profile === undefined || profile.environments.includes('producao') ? (
          <label className="choice">
            <input type="radio" value="producao" {...form.field('environment')} /> Produção (pagamentos de verdade)
          </label>
        ) : null}
        {profile === undefined || profile.environments.includes('homologacao') ? (
          <label className="choice">
            <input type="radio" value="homologacao" {...form.field('environment')} /> Homologação (testes do banco)
          </label>
        ) : null}
        {form.errorOf('environment') ? <p className="field-error">{form.errorOf('environment')}</p> : null}
      </fieldset>
      {profile?.typedAddresses ? (
        <>
          <TextField
            label="Endereço da API Pix"
            inputMode="url"
            autoComplete="off"
            hint="Como o banco informa, por exemplo https://api.banco.com.br/pix/v2"
            {...form.field('apiBaseUrl')}
          />
          <TextField
            label="Endereço do token (OAuth2)"
            inputMode="url"
            autoComplete="off"
            hint="Por exemplo https://api.banco.com.br/oauth/token"
            {...form.field('tokenUrl')}
          />
        </>
      ) : null}
      <TextField label="Client ID" autoComplete="off" spellCheck={false} {...form.field('clientId')} />
      {profile === undefined || profile.usesClientSecret ? (
        <TextField
          label="Client Secret"
          type="password"
          autoComplete="off"
          spellCheck={false}
          {...form.field('clientSecret')}
        />
      ) : null}
      {profile?.extra ? (
        <TextField label={profile.extra.label} hint={profile.extra.hint} autoComplete="off" {...form.field('extra')} />
      ) : null}
      <FileField
        label="Certificado"
        accept=".p12,.pfx,.pem,.crt,.cer"
        hint="O arquivo .p12 ou .pfx que o banco entregou, ou o certificado .pem, .crt ou .cer."
        fileName={certificateName}
        error={form.errorOf('certificate')}
        onChoose={(file) => {
          files.current.certificate = file;
          form.setValue('certificate', file?.name ?? '');
        }}
      />
      {pem ? (
        <FileField
          label="Chave privada (se veio em outro arquivo)"
          accept=".key,.pem"
          hint="O arquivo .key ou .pem com a chave privada do certificado."
          fileName={certificateKeyName}
          error={form.errorOf('certificateKey')}
          onChoose={(file) => {
            files.current.certificateKey = file;
            form.setValue('certificateKey', file?.name ?? '');
          }}
        />
      ) : null}
      <TextField
        label="Senha do certificado (se tiver)"
        type="password"
        autoComplete="off"
        {...form.field('certificatePassword')}
      />
      <p className="hint">
        O Balcão testa a conexão no banco antes de guardar qualquer coisa. O segredo e o certificado ficam cifrados com
        a chave da sua conta e nunca aparecem de novo nesta tela.
      </p>
      <p className="actions">
        <button type="submit" className="button" disabled={isLoading}>
          {isLoading ? 'Conectando ao banco…' : 'Conectar e testar'}
        </button>
        {onCancel ? (
          <button type="button" className="button secondary" onClick={onCancel}>
            Cancelar
          </button>
        ) : null}
      </p>
    </form>
  );
}
