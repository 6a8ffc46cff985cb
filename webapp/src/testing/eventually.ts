// Node's, which fake timers leave alone (the app's tsconfig has no Node types).
declare const setImmediate: (callback: () => void) => unknown;

/**
 * Retries `assertion` until it passes, yielding to the real event loop in between. Unlike
 * `vi.waitFor`, it never moves fake timers, so tests can assert exact times.
 */
export async function eventually(assertion: () => void, attempts = 500): Promise<void> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      assertion();
      return;
    } catch (error) {
      if (attempt >= attempts) throw error;
    }
    await new Promise<void>((resolve) => {
      setImmediate(resolve);
    });
  }
}
