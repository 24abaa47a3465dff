/**
 * One payer window per order (issue 14): the page where the payer pays an order (PayPal's, or
 * offline the payment sandbox's page standing in for the wallet sheet) opens once; pressing the
 * button again while that window is open brings it to the front instead of opening another (two
 * windows on one PayPal order end with the second on an error page).
 *
 * The window gets no handle on the console (its opener is cut, as for every outside page), which
 * also means the console may not close or navigate it once it shows the provider's page: after a
 * failure the payer's retry forgets it (it shows the provider's verdict), and the next press opens
 * a fresh one.
 */

const windows = new Map<number, Window>();

export type Opened = 'opened' | 'focused' | 'blocked';

/** Opens the order's payer window, or brings the one still open to the front. */
export function openPayerWindow(orderId: number, url: string): Opened {
  const open = windows.get(orderId);
  if (open && !open.closed) {
    open.focus();
    return 'focused';
  }
  const opened = window.open(url, '_blank');
  if (!opened) return 'blocked';
  opened.opener = null;
  windows.set(orderId, opened);
  return 'opened';
}

/** The payer starts the order's payment again: the next press opens a fresh window. */
export function forgetPayerWindow(orderId: number): void {
  windows.delete(orderId);
}
