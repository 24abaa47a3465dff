import i18next from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { accountInfo, envelope, fakeServer, setUpI18n } from '@/features/layout/testing';
import { changeLanguage } from '@/lib/i18n';
import { session } from '@/lib/session';
import { KEYS, read } from '@/lib/storage';
import { loadSessionPermissions } from './effects';

beforeAll(setUpI18n);
afterEach(async () => {
  session.clear();
  vi.restoreAllMocks();
  await changeLanguage('en-US');
});

/** An account whose saved language is `language`. */
function serve(language: string | null) {
  const { calls } = fakeServer({
    'GET /base/BaseAccount/accountInfo': () => envelope(accountInfo({ baseAccount: { ...accountInfo().baseAccount, language } })),
    'GET /base/BaseAccount/getScenePermissionList': () => envelope(accountInfo().permissionRoutes),
  });
  return () => calls.filter((c) => c.path === '/base/BaseAccount/accountInfo');
}

describe('opening a session', () => {
  it("takes up the account's saved language over this browser's, and reads the account again in it", async () => {
    const accountReads = serve('ru-RU');
    await loadSessionPermissions();
    expect(i18next.language).toBe('ru-RU');
    expect(read(KEYS.language, null)).toBe('ru-RU');
    expect(accountReads()).toHaveLength(2);
    expect(session.isLoaded()).toBe(true);
  });

  it("keeps this browser's language when the account has none", async () => {
    const accountReads = serve(null);
    await loadSessionPermissions();
    expect(i18next.language).toBe('en-US');
    expect(accountReads()).toHaveLength(1);
  });

  it('leaves an open session in the language just switched to', async () => {
    serve('ru-RU');
    await loadSessionPermissions();
    await changeLanguage('de-DE');
    await loadSessionPermissions();
    expect(i18next.language).toBe('de-DE');
  });
});
