import { afterEach, describe, expect, it } from 'vitest';
import { editionConfig, setEditionConfig } from '@/lib/config';
import { otherPlatformUrl, switchBody } from './platformSwitch';

const original = editionConfig();
afterEach(() => setEditionConfig(original));

describe('change platform', () => {
  it('drops empty fields from the body', () => {
    expect(switchBody({ userName: 'acme', accountPassword: 'pw', phone: '', email: null })).toEqual({
      userName: 'acme',
      accountPassword: 'pw',
    });
    expect(switchBody({ userName: 'acme', accountPassword: 'pw', phone: '138', email: 'a@b.c' })).toEqual({
      userName: 'acme', accountPassword: 'pw', phone: '138', email: 'a@b.c',
    });
    expect(switchBody({ userName: ' ', accountPassword: 'pw' })).toEqual({ accountPassword: 'pw' });
  });

  it('opens the token on this origin when no other platform is configured', () => {
    expect(otherPlatformUrl('abc', 'https://cloud.example.com')).toBe('https://cloud.example.com/?token=abc');
    expect(otherPlatformUrl('a b&c', 'https://cloud.example.com')).toBe('https://cloud.example.com/?token=a+b%26c');
  });

  it('opens the configured old platform with the token', () => {
    setEditionConfig({ ...original, externalLinks: { oldPlatform: 'https://old.example.com/login?from=new' } });
    expect(otherPlatformUrl('abc', 'https://cloud.example.com')).toBe('https://old.example.com/login?from=new&token=abc');
  });
});
