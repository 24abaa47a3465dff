import { describe, expect, it, vi } from 'vitest';
import {
  getToken,
  isNoticeSilenced,
  onTokenChangeInOtherTab,
  read,
  setToken,
  silenceNotice,
  TOKEN_LIFETIME_MS,
  write,
} from './storage';

describe('stored client settings', () => {
  it('keeps every setting under the jc__ prefix as JSON', () => {
    write('multiTab', true);
    expect(localStorage.getItem('jc__multiTab')).toBe('{"value":true}');
    expect(read('multiTab', false)).toBe(true);
  });

  it('keeps the token for exactly seven days', () => {
    setToken('abc', 1_000);
    expect(getToken(1_000 + TOKEN_LIFETIME_MS - 1)).toBe('abc');
    expect(getToken(1_000 + TOKEN_LIFETIME_MS)).toBeNull();
    expect(localStorage.getItem('jc__token')).toBeNull();
  });

  it('treats unreadable values as absent', () => {
    localStorage.setItem('jc__language', 'not json');
    expect(read('language', 'zh-CN')).toBe('zh-CN');
  });

  it('remembers a silenced notice per account and notice', () => {
    silenceNotice(3, 7);
    silenceNotice(3, 7);
    expect(isNoticeSilenced(3, 7)).toBe(true);
    expect(isNoticeSilenced(4, 7)).toBe(false);
    expect(read('noticeNoRemind', [])).toHaveLength(1);
  });

  it('reloads when another tab changes the token, not for other keys', () => {
    const reload = vi.fn();
    const stop = onTokenChangeInOtherTab(reload);
    window.dispatchEvent(new StorageEvent('storage', { key: 'jc__language', oldValue: 'a', newValue: 'b' }));
    expect(reload).not.toHaveBeenCalled();
    window.dispatchEvent(new StorageEvent('storage', { key: 'jc__token', oldValue: 'a', newValue: null }));
    expect(reload).toHaveBeenCalledOnce();
    stop();
  });
});
