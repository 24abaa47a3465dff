/** Where the features meet: each slot of lib/slots.ts filled with the feature part it names. */
import type { ReactNode } from 'react';
import { SessionDialogs } from '@/features/dialogs/SessionDialogs';
import { MessageBell } from '@/features/messages/components/MessageBell';
import { AutoRenewTag } from '@/features/recharge/AutoRenewTag';
import { RechargeFlow } from '@/features/recharge/RechargeFlow';
import { SlotsContext, type Offers, type Slots } from '@/lib/slots';
import { hasScreen, linkOffered } from './offered';
import { ROUTE_BY_NAME } from './routes';

const offers: Offers = {
  route: (name) => {
    const route = ROUTE_BY_NAME.get(name);
    return route !== undefined && hasScreen(route);
  },
  link: (url) => linkOffered(url),
};

export const SLOTS: Slots = { RechargeFlow, AutoRenewTag, MessageBell, SessionDialogs, offers };

export function SlotsProvider({ children }: { children: ReactNode }) {
  return <SlotsContext value={SLOTS}>{children}</SlotsContext>;
}
