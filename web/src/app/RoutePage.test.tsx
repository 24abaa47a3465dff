import { describe, expect, it } from 'vitest';
import { pageFor } from './RoutePage';

describe('route pages', () => {
  it('gives one lazy component per page for the life of the app', () => {
    // A fresh lazy() per render restarts loading on every router re-render mid-navigation.
    expect(pageFor('login')).not.toBeNull();
    expect(pageFor('login')).toBe(pageFor('login'));
    expect(pageFor('recover')).not.toBe(pageFor('login'));
  });

  it('has no page for a route whose screen is not built', () => {
    expect(pageFor('opSimList')).toBeNull();
  });
});
