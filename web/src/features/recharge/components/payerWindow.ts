/**
 * One payer window per order (issue 14): the page where the payer pays an order (PayPal's, or
 * offline the payment sandbox's page standing in for the wallet sheet) opens once; pressing the
 * button again while that window is open brings it to the front instead of opening another (two
 * windows on one PayPal order end with the second on an error page). The window gets no handle on
 * the console (its opener is cut), but the console keeps its own on it, to focus it and to close
 * it when the payer starts again after a failure.
 */

const windows = new Map<number, Window>();

export type Opened = 'opened' | 'focused' | 'blocked';

/** Opens the order's payer window, or brings the one already open to the front. */
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

/** Closes the order's payer window, if open (it shows a failed payment), so a retry opens afresh. */
export function closePayerWindow(orderId: number): void {
  const open = windows.get(orderId);
  windows.delete(orderId);
  if (open && !open.closed) open.close();
}
