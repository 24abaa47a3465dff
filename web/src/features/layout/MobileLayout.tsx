import { Outlet } from 'react-router';
import { useRootFontSize } from './frame/useRootFontSize';
import { useStoredLook } from './frame/useStoredLook';

/** Phone pages (mobile pay, help, quick query, mobile calibration): full width, text sized from the viewport. */
export function MobileLayout() {
  useStoredLook();
  useRootFontSize();
  return (
    <main className="jc-mobile-layout">
      <Outlet />
    </main>
  );
}
