// Leaving the app for a server-rendered page (a full page load, which also drops everything the app
// kept in memory). An object, not a bare function, so tests can replace `goTo`: jsdom cannot
// navigate, and `window.location` cannot be stubbed.

export const browserNavigation = {
  /** Loads `href` as a new page. */
  goTo(href: string): void {
    window.location.assign(href);
  },
};
