import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { isNoticeSilenced } from '@/lib/storage';
import { NoticeDialog } from './NoticeDialog';
import { renderApp, setUpI18n } from '@/test/harness';

const notice = {
  noticeId: 3,
  noticeContent:
    '<p><strong>Scheduled maintenance</strong> on Sunday.</p><script>window.hacked = true</script>' +
    '<img src="x" onerror="window.hacked = true"><a href="javascript:alert(1)">details</a>',
};

beforeAll(setUpI18n);
afterEach(() => vi.restoreAllMocks());

describe('NoticeDialog', () => {
  it('shows the notice as sanitized rich text', () => {
    renderApp(<NoticeDialog notice={notice} accountId={7} onClosed={() => {}} />);
    const dialog = screen.getByTestId('notice-dialog');
    expect(dialog.querySelector('strong')).toHaveTextContent('Scheduled maintenance');
    expect(dialog.querySelector('script')).toBeNull();
    expect(dialog.querySelector('img')).not.toHaveAttribute('onerror');
    expect(screen.getByText('details')).not.toHaveAttribute('href');
    expect(screen.getByRole('checkbox', { name: "Don't remind me again" })).not.toBeChecked();
  });

  it('silences the notice for this account only when the box is ticked', async () => {
    const user = userEvent.setup();
    const onClosed = vi.fn();
    renderApp(<NoticeDialog notice={notice} accountId={7} onClosed={onClosed} />);
    await user.click(screen.getByRole('checkbox', { name: "Don't remind me again" }));
    await user.click(within(screen.getByTestId('notice-dialog')).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(onClosed).toHaveBeenCalledTimes(1));
    expect(isNoticeSilenced(7, 3)).toBe(true);
    expect(isNoticeSilenced(8, 3)).toBe(false);
    expect(isNoticeSilenced(7, 4)).toBe(false);
  });

  it('keeps reminding when closed without the box', async () => {
    const user = userEvent.setup();
    const onClosed = vi.fn();
    renderApp(<NoticeDialog notice={notice} accountId={7} onClosed={onClosed} />);
    await user.click(within(screen.getByTestId('notice-dialog')).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(onClosed).toHaveBeenCalled());
    expect(isNoticeSilenced(7, 3)).toBe(false);
  });

  it('silences it too when closed with Escape', async () => {
    const user = userEvent.setup();
    const onClosed = vi.fn();
    renderApp(<NoticeDialog notice={notice} accountId={9} onClosed={onClosed} />);
    await user.click(screen.getByRole('checkbox', { name: "Don't remind me again" }));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(onClosed).toHaveBeenCalled());
    expect(isNoticeSilenced(9, 3)).toBe(true);
  });
});
