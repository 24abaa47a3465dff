import { CardsPanel } from './BatchesPanel';

/** The recharge cards tab of /service/package (catalogue/tabs.ts). */
export default CardsPanel;
