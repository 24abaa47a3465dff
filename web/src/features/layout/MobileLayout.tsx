import { Outlet, useLocation } from 'react-router';
import { useRootFontSize } from './frame/useRootFontSize';
import { useStoredLook } from './frame/useStoredLook';
import { MobileCalibrationHeader } from './MobileCalibrationHeader';

/** Phone pages (mobile pay, help, quick query, mobile calibration): full width, text sized from the viewport. */
export function MobileLayout() {
  useStoredLook();
  useRootFontSize();
  const { pathname } = useLocation();
  return (
    <main className="jc-mobile-layout">
      {pathname.startsWith('/mobile/calibration') && <MobileCalibrationHeader />}
      <Outlet />
    </main>
  );
}
