/**
 * Full-page navigation to an address outside the SPA (the payment checkout). One seam, so tests can
 * spy on it: jsdom's window.location.assign cannot be replaced.
 */
export const browserNavigation = {
  assign(url: string): void {
    window.location.assign(url);
  },
};
