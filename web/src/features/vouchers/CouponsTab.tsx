import { CouponsPanel } from './BatchesPanel';

/** The coupons tab of /service/package (catalogue/tabs.ts). */
export default CouponsPanel;
