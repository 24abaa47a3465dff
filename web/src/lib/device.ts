/** What kind of browser the console runs in, and the breakpoints of spec seed 000 section 9. */

export const BREAKPOINTS = { tablet: 576, desktop: 1350 } as const;
export type Breakpoint = 'mobile' | 'tablet' | 'desktop';

export function breakpointOf(width: number): Breakpoint {
  if (width >= BREAKPOINTS.desktop) return 'desktop';
  if (width >= BREAKPOINTS.tablet) return 'tablet';
  return 'mobile';
}

export function isMobileDevice(userAgent: string = navigator.userAgent): boolean {
  return /Android|webOS|iPhone|iPad|iPod|BlackBerry|IEMobile|Opera Mini|Mobile|HarmonyOS/i.test(userAgent);
}

export function isWeChatBrowser(userAgent: string = navigator.userAgent): boolean {
  return /MicroMessenger/i.test(userAgent);
}

/** Mobile pages size text from the viewport: root font size is the width divided by 11.04. */
export function rootFontSize(viewportWidth: number): number {
  return viewportWidth / 11.04;
}
