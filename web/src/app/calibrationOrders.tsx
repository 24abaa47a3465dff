/**
 * /{role}/order/list and /{role}/order/detail/{applicationId} (spec 001 section 2): the lab's pages
 * for an account holding the lab's permission, the customer's own applications (page/ApplicationOrder)
 * for any other. {role} is only part of the path: what the page shows follows the account's
 * permission as it is now (another login in the same tab shows the other's).
 */
import { LAB_PERMISSION } from '@/lib/api/calibrationLab';
import { usePermissions } from '@/lib/permissions';
import { lazyPage, type PageLoader } from './lazy';

const LabOrders = lazyPage(() => import('@/features/calibrationlab/OrdersPage'));
const LabOrder = lazyPage(() => import('@/features/calibrationlab/OrderDetailPage'));
const OwnOrders = lazyPage(() => import('@/features/calibration/mobile/ListPage'));
const OwnOrder = lazyPage(() => import('@/features/calibration/mobile/DetailPage'));

function Orders() {
  return usePermissions().has(LAB_PERMISSION) ? <LabOrders /> : <OwnOrders />;
}

function Order() {
  return usePermissions().has(LAB_PERMISSION) ? <LabOrder /> : <OwnOrder />;
}

export const calibrationOrderPages: Record<string, PageLoader> = {
  calibrationOrders: () => Promise.resolve({ default: Orders }),
  calibrationOrderDetail: () => Promise.resolve({ default: Order }),
};
