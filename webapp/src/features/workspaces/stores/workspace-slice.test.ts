import { describe, expect, it } from 'vitest';

import { signedOut } from '@/lib/credentials';
import { makeTestStore } from '@/testing/test-utils';

import { selectSelectedAccountId, workspaceSelected } from './workspace-slice';

describe('the workspace slice', () => {
  it('starts on the person’s own account (no selection)', () => {
    expect(selectSelectedAccountId(makeTestStore().getState())).toBeNull();
  });

  it('keeps the chosen account', () => {
    const store = makeTestStore();
    store.dispatch(workspaceSelected('conta-do-bruno'));
    expect(selectSelectedAccountId(store.getState())).toBe('conta-do-bruno');
  });

  it('forgets the choice when the session ends, whatever the reason', () => {
    const store = makeTestStore();
    for (const reason of ['user', 'session-expired', 'account-disabled', 'account-deleted'] as const) {
      store.dispatch(workspaceSelected('conta-do-bruno'));
      store.dispatch(signedOut({ reason }));
      expect(selectSelectedAccountId(store.getState())).toBeNull();
    }
  });
});
