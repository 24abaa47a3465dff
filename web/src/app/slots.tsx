/** Where the features meet: each slot of lib/slots.ts filled with the feature part it names. */
import { lazy, Suspense, type ComponentProps, type ReactNode } from 'react';
import { SessionDialogs } from '@/features/dialogs/SessionDialogs';
import { MessageBell } from '@/features/messages/components/MessageBell';
import { AutoRenewTag } from '@/features/recharge/AutoRenewTag';
import { RechargeFlow } from '@/features/recharge/RechargeFlow';
import { SlotsContext, type Offers, type Slots } from '@/lib/slots';
import { hasScreen, linkOffered } from './offered';
import { ROUTE_BY_NAME } from './routes';

// Loaded when first shown: their zod schemas must not be built before main.tsx makes zod jitless,
// which a chunk the entry imports statically would do (its code runs before the entry's).
const LazyCouponField = lazy(() => import('@/features/vouchers/components/CouponField')
  .then((m) => ({ default: m.CouponField })));
const LazyRedeemCard = lazy(() => import('@/features/vouchers/components/RedeemCardDialog')
  .then((m) => ({ default: m.RedeemCardDialog })));
const LazyMyOrders = lazy(() => import('@/features/recharge/components/MyOrders').then((m) => ({ default: m.MyOrders })));

function CouponField(props: ComponentProps<Slots['CouponField']>) {
  return <Suspense fallback={null}><LazyCouponField {...props} /></Suspense>;
}

function RedeemCard(props: ComponentProps<Slots['RedeemCard']>) {
  return <Suspense fallback={null}><LazyRedeemCard {...props} /></Suspense>;
}

function MyOrders() {
  return <Suspense fallback={null}><LazyMyOrders /></Suspense>;
}

const offers: Offers = {
  route: (name) => {
    const route = ROUTE_BY_NAME.get(name);
    return route !== undefined && hasScreen(route);
  },
  link: (url) => linkOffered(url),
};

export const SLOTS: Slots = {
  RechargeFlow, AutoRenewTag, MessageBell, SessionDialogs, offers, CouponField, RedeemCard, MyOrders,
};

export function SlotsProvider({ children }: { children: ReactNode }) {
  return <SlotsContext value={SLOTS}>{children}</SlotsContext>;
}
