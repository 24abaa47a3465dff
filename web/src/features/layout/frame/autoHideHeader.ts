import { useEffect, useState } from 'react';

/** The header hides once the content is scrolled more than this far down (spec seed 000 section 9). */
export const AUTO_HIDE_AFTER_PX = 300;

/** Whether the header is hidden after a scroll from `lastY` to `y`: down past 300 px hides, up shows. */
export function nextHeaderHidden(hidden: boolean, lastY: number, y: number, threshold = AUTO_HIDE_AFTER_PX): boolean {
  if (y <= threshold) return false;
  if (y > lastY) return true;
  if (y < lastY) return false;
  return hidden;
}

/** Tracks the window's scroll while `enabled`; always false when not. */
export function useAutoHideHeader(enabled: boolean): boolean {
  const [hidden, setHidden] = useState(false);
  useEffect(() => {
    if (!enabled) {
      setHidden(false);
      return undefined;
    }
    let lastY = window.scrollY;
    const onScroll = () => {
      const [from, y] = [lastY, window.scrollY];
      lastY = y;
      setHidden((was) => nextHeaderHidden(was, from, y));
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, [enabled]);
  return enabled && hidden;
}
