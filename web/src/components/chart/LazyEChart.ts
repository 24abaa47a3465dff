import { lazy } from 'react';

/** The chart component, loaded with ECharts only when a chart is drawn. */
export const EChart = lazy(() => import('./EChart'));
