/**
 * The tabs of /service/package that other features own (features/catalogue/tabs.ts names them;
 * features do not import each other, so their panels are reached through here).
 */
export const promotionsPanel = () => import('@/features/promotions/ActivitiesPanel');
export const smsPanel = () => import('@/features/promotions/SmsPanel');
export const voicePanel = () => import('@/features/promotions/VoicePanel');
export const salesPanel = () => import('@/features/promotions/SalesPanel');
export const couponsPanel = () => import('@/features/vouchers/CouponsTab');
export const cardsPanel = () => import('@/features/vouchers/CardsTab');
