/**
 * The parts one feature shows inside another's screens (the recharge drawers on the device pages,
 * the message bell in the header, ...). Features never import each other (eslint.config.js): a
 * screen asks for such a part here, and app/slots.tsx fills each slot with the owning feature's
 * component.
 */
import { createContext, useContext, type ComponentType } from 'react';

/** The recharge drawer and the drawers it leads to (features/recharge/RechargeFlow). */
export interface RechargeFlowProps {
  /** Whether the recharge drawer is shown. */
  isOpen: boolean;
  /** One device, or several of one type (a batch recharge). */
  deviceIds: readonly number[];
  /** Closes the recharge drawer. */
  onClose: () => void;
  /** Opens the SMS/voice drawer alone for these devices; null or absent: not asked for. */
  alertDeviceIds?: readonly number[] | null;
  /** Says that the SMS/voice drawer closed. */
  onAlertsClose?: () => void;
}

/** The "Auto-renew on" tag of a device (features/recharge/AutoRenewTag). */
export interface AutoRenewTagProps {
  /** The device whose renewal the tag shows. */
  device: { deviceId: number; deviceName?: string | null };
  /** A large tag (the device detail page). */
  large?: boolean;
  /** The caller may only read the device: cancelling is not offered. */
  readOnly?: boolean;
}

/**
 * What the console offers (app/offered.ts): a route or link only once its page is built. Pages
 * read it here because a page importing the page registry would import itself.
 */
export interface Offers {
  /** Whether the route of this name leads to something real. */
  route: (name: string) => boolean;
  /** Whether a link (ours or an outside site) leads to something real. */
  link: (url: string) => boolean;
}

/** A coupon priced on an order's total (features/vouchers: activity/PayCoupon/checkCoupon). */
export interface AppliedCoupon {
  couponCode: string;
  /** Cents before the coupon, the total it was priced on. */
  totalFee: number;
  /** Cents it takes off. */
  couponFee: number;
  /** Cents charged. */
  payFee: number;
  currency: string;
}

/** The paying drawer's coupon field (features/vouchers/components/CouponField). */
export interface CouponFieldProps {
  /** Cents the order charges before a coupon; null while unknown (no coupon can be priced). */
  totalFee: number | null;
  /** The coupon applied, priced on `value.totalFee`. */
  value: AppliedCoupon | null;
  onChange: (coupon: AppliedCoupon | null) => void;
}

/** Redeem a prepaid recharge card (features/vouchers/components/RedeemCardDialog). */
export interface RedeemCardProps {
  isOpen: boolean;
  onClose: () => void;
  /** The device the card is for; without it the customer chooses one of theirs. */
  device?: { deviceId: number; deviceName: string } | null;
}

export interface Slots {
  RechargeFlow: ComponentType<RechargeFlowProps>;
  /** The paying drawer's coupon field (features/vouchers). */
  CouponField: ComponentType<CouponFieldProps>;
  /** The redeem-a-card dialog (features/vouchers). */
  RedeemCard: ComponentType<RedeemCardProps>;
  /** The caller's orders (features/recharge), the activity centre's recharge records. */
  MyOrders: ComponentType;
  AutoRenewTag: ComponentType<AutoRenewTagProps>;
  /** The header's unhandled-alarm bell (features/messages). */
  MessageBell: ComponentType;
  /** The dialogs a signed-in session may show over any page (features/dialogs). */
  SessionDialogs: ComponentType;
  /** Not a part but a question: which routes and links have pages. */
  offers: Offers;
}

export const SlotsContext = createContext<Slots | null>(null);

/** The filled slots; app/slots.tsx provides them around the router (and the test harnesses do). */
export function useSlots(): Slots {
  const slots = useContext(SlotsContext);
  if (!slots) throw new Error('useSlots needs a SlotsProvider (app/slots.tsx) above it');
  return slots;
}
