import { useEffect, useState } from 'react';
import { breakpointOf, type Breakpoint } from '@/lib/device';

/** The window's breakpoint (mobile, tablet, desktop), kept current on resize. */
export function useBreakpoint(): Breakpoint {
  const [breakpoint, setBreakpoint] = useState<Breakpoint>(() => breakpointOf(window.innerWidth));
  useEffect(() => {
    const onResize = () => setBreakpoint(breakpointOf(window.innerWidth));
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return breakpoint;
}
