import type { PageLoader } from '@/app/lazy';

const mobile = (name: keyof typeof import('./mobile/MobilePages')): PageLoader =>
  () => import('./mobile/MobilePages').then((m) => ({ default: m[name] as React.ComponentType }));

/** The calibration customer's pages, by route name (app/routes.ts): PC under /calibration, phone under /mobile/calibration. */
export const pages: Record<string, PageLoader> = {
  calibrationHome: () => import('./HomePage'),
  calibrationForm: () => import('./FormPage'),
  calibrationFormExample: () => import('./FormPage').then((m) => ({ default: m.FormExamplePage })),
  calibrationQuickly: () => import('./QuicklyPage'),
  calibrationPreview: () => import('./PreviewPage'),
  calibrationLogin: () => import('./LoginPage'),
  'mobileCalibration.home': mobile('Home'),
  'mobileCalibration.quickly': mobile('Quickly'),
  'mobileCalibration.device': mobile('Device'),
  'mobileCalibration.device/example': mobile('DeviceExample'),
  'mobileCalibration.serve': mobile('Serve'),
  'mobileCalibration.customer': mobile('Customer'),
  'mobileCalibration.customer/example': mobile('CustomerExample'),
  'mobileCalibration.apply': mobile('Apply'),
  'mobileCalibration.apply/success': mobile('ApplySuccess'),
  'mobileCalibration.apply/latter': mobile('ApplyLatter'),
  'mobileCalibration.pdf': mobile('Pdf'),
  'mobileCalibration.preview': mobile('Preview'),
  'mobileCalibration.login': mobile('Login'),
  mobileCalibrationList: () => import('./mobile/ListPage'),
  mobileCalibrationDetail: () => import('./mobile/DetailPage'),
};
