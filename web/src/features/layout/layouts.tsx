import type { ComponentType } from 'react';
import type { LayoutName } from '@/app/routes';
import { BlankLayout } from './BlankLayout';
import { CalibrationLayout } from './CalibrationLayout';
import { GlobalMapLayout, MainLayout } from './MainLayout';
import { MobileLayout } from './MobileLayout';

/** The frame each route is drawn in. */
export const LAYOUTS: Record<LayoutName, ComponentType> = {
  main: MainLayout,
  globalMap: GlobalMapLayout,
  blank: BlankLayout,
  calibration: CalibrationLayout,
  mobileCalibration: MobileLayout,
  mobile: MobileLayout,
};
