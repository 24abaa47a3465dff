import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { notify } from '@/lib/notify';
import { session } from '@/lib/session';
import { KEYS, read } from '@/lib/storage';
import { browser } from '../browser';
import { accountInfo, envelope, fakeServer, givePagesToEveryRoute, renderLayout, setUpI18n } from '../testing';

// Every route has a page here (see givePagesToEveryRoute); tests of honesty take some away.
const pages = vi.hoisted(() => ({}) as Record<string, unknown>);
vi.mock('@/app/pages', () => ({ PAGES: pages }));
vi.mock('@/features/dialogs/SessionDialogs', () => ({ SessionDialogs: () => null }));

beforeAll(setUpI18n);
beforeEach(() => {
  givePagesToEveryRoute(pages);
  vi.spyOn(browser, 'reload').mockImplementation(() => {});
  vi.spyOn(browser, 'assign').mockImplementation(() => {});
});
afterEach(() => {
  session.clear();
  vi.restoreAllMocks();
});

async function choose(sceneName: string) {
  const user = userEvent.setup();
  await user.click(screen.getByTestId('scene-selector'));
  await user.click(await screen.findByText(sceneName));
}

describe('scene selector', () => {
  it('lists the scenes of the account, the current one ticked', async () => {
    renderLayout();
    expect(screen.getByTestId('scene-selector')).toHaveTextContent('Cold-chain monitoring');
    await userEvent.setup().click(screen.getByTestId('scene-selector'));
    const current = (await screen.findByText('Cold-chain monitoring', { selector: '.bp6-menu *' })).closest('a')!;
    expect(current).toHaveAttribute('data-scene', '1');
    expect(screen.getByText('Cloud chain').closest('a')).toHaveAttribute('data-scene', '2');
  });

  it('refuses scene 2 without cloudChain.myProject: "No permission!" for 4 s, nothing stored, no reload', async () => {
    const server = fakeServer({ 'GET /base/BaseAccount/getScenePermissionList': () => envelope(['cloudChain.cockpit']) });
    const error = vi.spyOn(notify, 'error').mockImplementation(() => {});
    renderLayout();
    await choose('Cloud chain');
    await waitFor(() => expect(error).toHaveBeenCalledWith('No permission!'));
    expect(server.calls[0]!.query.get('sceneId')).toBe('2');
    expect(read(KEYS.sceneId, null)).toBeNull();
    expect(browser.reload).not.toHaveBeenCalled();
    expect(browser.assign).not.toHaveBeenCalled();
  });

  it('stores scene 2 and reloads when its list holds cloudChain.myProject', async () => {
    fakeServer({ 'GET /base/BaseAccount/getScenePermissionList': () => envelope(['cloudChain.myProject', 'cloudChain.cockpit']) });
    renderLayout();
    await choose('Cloud chain');
    await waitFor(() => expect(browser.reload).toHaveBeenCalledTimes(1));
    expect(read(KEYS.sceneId, null)).toBe(2);
  });

  it('stores scene 1 and opens /home afresh, without asking the server', async () => {
    const server = fakeServer({});
    renderLayout({ sceneId: 2, scenePermissions: ['cloudChain.myProject'] });
    await choose('Cold-chain monitoring');
    await waitFor(() => expect(browser.assign).toHaveBeenCalledWith('/home'));
    expect(read(KEYS.sceneId, null)).toBe(1);
    expect(server.calls).toHaveLength(0);
  });

  it('shows a single scene as a label, with nothing to choose', () => {
    renderLayout({ info: accountInfo({ baseSceneList: [{ sceneType: 1, sceneName: 'Cold-chain monitoring' }] }) });
    const label = screen.getByTestId('scene-selector');
    expect(label.tagName).toBe('SPAN');
    expect(label).toHaveTextContent('Cold-chain monitoring');
  });
});
