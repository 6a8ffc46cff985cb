// The account a person last worked in, remembered on this device per person, so a reload or a
// new session opens in the same account (an operator who switched to the shop's account keeps
// making codes there). Another person signing in on the same device starts in their own account:
// the memory is keyed by the person's own account id.

const PREFIX = 'balcao:conta-em-uso:';

/** The account `ownAccountId`'s person last chose on this device, or null. */
export function recallWorkspace(ownAccountId: string): string | null {
  try {
    // eslint-disable-next-line no-restricted-properties -- the id of the account in use, never a token
    return window.localStorage.getItem(PREFIX + ownAccountId);
  } catch {
    // Storage can be off (private mode, a policy): the choice then lasts until the tab closes.
    return null;
  }
}

/** Remembers that `ownAccountId`'s person works in `accountId` now. */
export function rememberWorkspace(ownAccountId: string, accountId: string): void {
  try {
    if (accountId === ownAccountId) {
      // eslint-disable-next-line no-restricted-properties -- the id of the account in use, never a token
      window.localStorage.removeItem(PREFIX + ownAccountId);
    } else {
      // eslint-disable-next-line no-restricted-properties -- the id of the account in use, never a token
      window.localStorage.setItem(PREFIX + ownAccountId, accountId);
    }
  } catch {
    // As above: nothing to keep it in.
  }
}
