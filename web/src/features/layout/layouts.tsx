import type { ComponentType } from 'react';
import type { LayoutName } from '@/app/routes';
import { BlankLayout } from './BlankLayout';
import { MainLayout } from './MainLayout';

/** The frame each route is drawn in. */
export const LAYOUTS: Record<LayoutName, ComponentType> = {
  main: MainLayout,
  globalMap: MainLayout,
  blank: BlankLayout,
  calibration: BlankLayout,
  mobileCalibration: BlankLayout,
  mobile: BlankLayout,
};
