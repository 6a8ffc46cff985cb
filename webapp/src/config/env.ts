// Settings known when the app starts. There are no VITE_* variables: the app is served by the same
// gateway as its API, so everything else is a same-origin path.

function nonEmpty(name: string, value: string): string {
  if (value.trim() === '') throw new Error(`Configuração ausente: ${name}`);
  return value;
}

export const env = {
  /** This build's id (`BALCAO_BUILD_ID` or timestamp + hash), to spot a newer deploy. */
  buildId: nonEmpty('__BALCAO_BUILD_ID__', __BALCAO_BUILD_ID__),
  /** Where the JSON API lives: the origin that served the app. */
  apiOrigin: nonEmpty('window.location.origin', window.location.origin),
} as const;
