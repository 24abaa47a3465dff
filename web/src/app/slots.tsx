/** Where the features meet: each slot of lib/slots.ts filled with the feature part it names. */
import type { ReactNode } from 'react';
import { SessionDialogs } from '@/features/dialogs/SessionDialogs';
import { MessageBell } from '@/features/messages/components/MessageBell';
import { AutoRenewTag } from '@/features/recharge/AutoRenewTag';
import { RechargeFlow } from '@/features/recharge/RechargeFlow';
import { SlotsContext, type Slots } from '@/lib/slots';

export const SLOTS: Slots = { RechargeFlow, AutoRenewTag, MessageBell, SessionDialogs };

export function SlotsProvider({ children }: { children: ReactNode }) {
  return <SlotsContext value={SLOTS}>{children}</SlotsContext>;
}
