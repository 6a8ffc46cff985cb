// The numbers behind the session. See webapp/README.md, "Session rules".

/** Refresh this long before the access token expires. */
export const REFRESH_LEAD_SECONDS = 5 * 60;
/** First wait after a refresh failed for lack of network. */
export const FIRST_RETRY_SECONDS = 30;
/** The waits double up to this cap (16 minutes). */
export const MAX_RETRY_SECONDS = 16 * 60;

/**
 * How long after receiving a token to refresh it: 5 minutes before expiry, or halfway through its
 * life for tokens shorter than 10 minutes (so a short token is not refreshed the moment it arrives).
 */
export function refreshDelayMs(expiresInSeconds: number): number {
  const seconds = Math.max(expiresInSeconds - REFRESH_LEAD_SECONDS, expiresInSeconds / 2, 0);
  return Math.round(seconds * 1000);
}

/** Wait before retry number `failures` (1 = after the first failure): 30 s, 60 s, 120 s … 960 s. */
export function retryDelayMs(failures: number): number {
  const doublings = Math.max(0, failures - 1);
  // Past 5 doublings the cap applies anyway; stopping there keeps 2 ** n small.
  const seconds = Math.min(FIRST_RETRY_SECONDS * 2 ** Math.min(doublings, 6), MAX_RETRY_SECONDS);
  return seconds * 1000;
}
