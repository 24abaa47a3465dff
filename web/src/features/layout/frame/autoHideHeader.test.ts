import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { nextHeaderHidden, useAutoHideHeader } from './autoHideHeader';

function scrollTo(y: number): void {
  Object.defineProperty(window, 'scrollY', { configurable: true, value: y });
  window.dispatchEvent(new Event('scroll'));
}

describe('header auto-hide', () => {
  it('stays while the content is within 300 px of the top', () => {
    expect(nextHeaderHidden(false, 0, 200)).toBe(false);
    expect(nextHeaderHidden(true, 320, 300)).toBe(false);
  });

  it('hides when scrolling down past 300 px and returns on scroll up', () => {
    expect(nextHeaderHidden(false, 290, 301)).toBe(true);
    expect(nextHeaderHidden(true, 800, 700)).toBe(false);
    expect(nextHeaderHidden(true, 700, 700)).toBe(true);
  });

  it('follows the window scroll only when switched on', () => {
    const on = renderHook(() => useAutoHideHeader(true));
    const off = renderHook(() => useAutoHideHeader(false));
    act(() => scrollTo(100));
    act(() => scrollTo(500));
    expect(on.result.current).toBe(true);
    expect(off.result.current).toBe(false);
    act(() => scrollTo(450));
    expect(on.result.current).toBe(false);
    act(() => scrollTo(0));
  });
});
