import { describe, expect, it } from 'vitest';
import { loginFor, safeRedirect } from './redirect';

const origin = 'https://console.example.com';

describe('redirect after login', () => {
  it.each([
    ['/device/list?deviceName=A', '/device/list?deviceName=A'],
    ['/home#top', '/home#top'],
    ['/waybill/detail/12', '/waybill/detail/12'],
  ])('keeps the same-site path %s', (raw, expected) => {
    expect(safeRedirect(raw, origin)).toBe(expected);
  });

  it.each([null, '', 'home', 'https://evil.example/', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)', '/user/login?redirect=/x'])(
    'falls back to / for %j',
    (raw) => {
      expect(safeRedirect(raw, origin)).toBe('/');
    },
  );

  it('builds the login address that comes back', () => {
    expect(loginFor('/user/bind-email?x=1')).toBe('/user/login?redirect=%2Fuser%2Fbind-email%3Fx%3D1');
  });
});
