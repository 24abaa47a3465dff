import { useEffect } from 'react';
import { rootFontSize } from '@/lib/device';

/** Resizes are followed once they settle (spec seed 000 section 9: resize watcher 300 ms). */
export const RESIZE_SETTLE_MS = 300;

/** Mobile pages size text from the viewport: the root font size is the width ÷ 11.04, restored on leaving. */
export function useRootFontSize(): void {
  useEffect(() => {
    const root = document.documentElement;
    const before = root.style.fontSize;
    const apply = () => {
      root.style.fontSize = `${rootFontSize(window.innerWidth)}px`;
    };
    apply();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onResize = () => {
      clearTimeout(timer);
      timer = setTimeout(apply, RESIZE_SETTLE_MS);
    };
    window.addEventListener('resize', onResize);
    return () => {
      clearTimeout(timer);
      window.removeEventListener('resize', onResize);
      root.style.fontSize = before;
    };
  }, []);
}
