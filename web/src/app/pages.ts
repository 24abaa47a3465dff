/** Which screen each route shows. A route without one shows "still in development" (404). */
import { pages as account } from '@/features/account/pages';
import { pages as assets } from '@/features/assets/pages';
import { pages as auth } from '@/features/auth/pages';
import { pages as calibration } from '@/features/calibration/pages';
import { pages as calibrationlab } from '@/features/calibrationlab/pages';
import { pages as catalogue } from '@/features/catalogue/pages';
import { pages as devices } from '@/features/devices/pages';
import { pages as downloads } from '@/features/downloads/pages';
import { pages as errors } from '@/features/errors/pages';
import { pages as fda } from '@/features/fda/pages';
import { pages as home } from '@/features/home/pages';
import { pages as geofence } from '@/features/geofence/pages';
import { pages as messages } from '@/features/messages/pages';
import { pages as offline } from '@/features/offline/pages';
import { pages as operationLog } from '@/features/operationLog/pages';
import { pages as orderdesk } from '@/features/orderdesk/pages';
import { pages as organizations } from '@/features/organizations/pages';
import { pages as platforms } from '@/features/platforms/pages';
import { pages as projects } from '@/features/projects/pages';
import { pages as quickquery } from '@/features/quickquery/pages';
import { pages as recharge } from '@/features/recharge/pages';
import { pages as rechargestats } from '@/features/rechargestats/pages';
import { pages as reports } from '@/features/reports/pages';
import { pages as sharing } from '@/features/sharing/pages';
import { pages as useradmin } from '@/features/useradmin/pages';
import { pages as vouchers } from '@/features/vouchers/pages';
import { pages as waybills } from '@/features/waybills/pages';
import { calibrationOrderPages } from './calibrationOrders';
import type { PageLoader } from './lazy';

export const PAGES: Readonly<Record<string, PageLoader>> = {
  ...account, ...assets, ...auth, ...catalogue, ...devices, ...downloads, ...errors, ...fda, ...home, ...messages, ...operationLog,
  ...offline, ...orderdesk, ...organizations, ...platforms, ...projects, ...recharge, ...rechargestats, ...reports, ...sharing,
  ...useradmin, ...vouchers, ...waybills, ...quickquery, ...geofence,
  ...calibration,
  ...calibrationlab,
  ...calibrationOrderPages,
};
