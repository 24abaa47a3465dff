import { afterEach, describe, expect, it } from 'vitest';
import { tabStore } from './tabStore';

afterEach(() => tabStore.clear());

describe('tab store', () => {
  it('keeps the tabs in sessionStorage for a reload', () => {
    tabStore.set({ tabs: [{ name: 'home', path: '/home' }], active: 'home' });
    expect(JSON.parse(sessionStorage.getItem('jc__tabs')!)).toEqual({ tabs: [{ name: 'home', path: '/home' }], active: 'home' });
  });

  it('forgets the tabs of another account', () => {
    tabStore.claim(3);
    tabStore.set({ tabs: [{ name: 'home', path: '/home' }, { name: 'deviceList', path: '/device/list' }], active: 'home' });
    tabStore.claim(3);
    expect(tabStore.get().tabs).toHaveLength(2);
    tabStore.claim(4);
    expect(tabStore.get()).toEqual({ tabs: [], active: null });
  });

  it('forgets everything on sign-out', () => {
    tabStore.set({ tabs: [{ name: 'home', path: '/home' }], active: 'home' });
    tabStore.clear();
    expect(tabStore.get()).toEqual({ tabs: [], active: null });
    expect(sessionStorage.getItem('jc__tabs')).toBeNull();
  });
});
