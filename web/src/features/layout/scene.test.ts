import { describe, expect, it, vi } from 'vitest';
import { KEYS, read } from '@/lib/storage';
import { chooseScene } from './scene';

describe('chooseScene', () => {
  it('stores scene 1 and lands without asking for permissions', async () => {
    const fetchPermissions = vi.fn();
    await expect(chooseScene(1, fetchPermissions)).resolves.toBe('landing');
    expect(read(KEYS.sceneId, null)).toBe(1);
    expect(fetchPermissions).not.toHaveBeenCalled();
  });

  it('refuses scene 2 without cloudChain.myProject and stores nothing', async () => {
    await expect(chooseScene(2, async () => ['cloudChain.cockpit'])).resolves.toBe('denied');
    expect(read(KEYS.sceneId, null)).toBeNull();
  });

  it('stores scene 2 and reloads with cloudChain.myProject', async () => {
    const fetchPermissions = vi.fn(async () => ['cloudChain.myProject']);
    await expect(chooseScene(2, fetchPermissions)).resolves.toBe('reload');
    expect(fetchPermissions).toHaveBeenCalledWith(2);
    expect(read(KEYS.sceneId, null)).toBe(2);
  });

  it('stores nothing when the permissions cannot be read', async () => {
    await expect(chooseScene(2, async () => Promise.reject(new Error('offline')))).rejects.toThrow('offline');
    expect(read(KEYS.sceneId, null)).toBeNull();
  });
});
