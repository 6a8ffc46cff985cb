import { KeyBankLine } from '@/features/bank-connection/components/key-bank-line';
import { KeysScreen } from '@/features/keys/components/keys-screen';
import { WithWorkspace } from '@/features/workspaces/components/with-workspace';

/** /painel/chaves, for the account in use (a new account starts a new screen: no leftover input). */
export function Component() {
  return (
    <WithWorkspace title="Chaves Pix">
      {(workspace) => (
        <KeysScreen
          key={workspace.accountId}
          workspace={workspace}
          // Owners and managers connect a key's bank (issue 33); operators only see the keys.
          keyExtra={
            workspace.role === 'operator'
              ? undefined
              : (keyId, shown) => <KeyBankLine accountId={workspace.accountId} keyId={keyId} shownKey={shown} />
          }
        />
      )}
    </WithWorkspace>
  );
}
