import { Card, H2, NonIdealState, Tab, Tabs } from '@blueprintjs/core';
import { LockIcon } from '@blueprintjs/icons';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { usePermitted } from '@/lib/permissions';
import { EndorsementsTab } from './components/EndorsementsTab';
import { ModeTab } from './components/ModeTab';
import { ReportsTab } from './components/ReportsTab';
import { SignaturesTab } from './components/SignaturesTab';
import { TrailTab } from './components/TrailTab';
import './fda.css';

const TABS = ['mode', 'endorsements', 'signatures', 'trail', 'reports'] as const;
type FdaTab = (typeof TABS)[number];
const isTab = (value: string | null): value is FdaTab => (TABS as readonly (string | null)[]).includes(value);

/**
 * FDA 21 CFR Part 11 (/fda): FDA mode per subject (the caller's own records and each organization's),
 * who may sign what (endorsements), the electronic signatures, the tamper-evident audit trail and
 * the signed periodic reports. The tab is kept in the address (?tab=).
 */
export default function FdaPage() {
  const { t } = useTranslation(['fda', 'app']);
  const [params, setParams] = useSearchParams();
  const raw = params.get('tab');
  const tab: FdaTab = isTab(raw) ? raw : 'mode';
  // every tab reads (a refused read would end the session): without the permission nothing is asked
  const readable = usePermitted('fda', 'query');
  return (
    <div className="jc-fda" data-testid="fda-page">
      <header className="jc-fda-head">
        <H2>{t('app:route.fda')}</H2>
        <p>{t('subtitle')}</p>
      </header>
      <Card className="jc-fda-card" elevation={0}>
        {readable ? (
          <Tabs id="jc-fda-tabs" className="jc-fda-tabs" selectedTabId={tab} renderActiveTabPanelOnly size="large"
            onChange={(id) => setParams(id === 'mode' ? {} : { tab: String(id) }, { replace: true })}>
            {TABS.map((id) => (
              <Tab key={id} id={id} title={t(`tab.${id}`)} data-testid={`fda-tab-${id}`} panel={<Panel tab={id} />} />
            ))}
          </Tabs>
        ) : (
          <NonIdealState icon={<LockIcon />} title={t('noPermission')} />
        )}
      </Card>
    </div>
  );
}

function Panel({ tab }: { tab: FdaTab }) {
  switch (tab) {
    case 'mode':
      return <ModeTab />;
    case 'endorsements':
      return <EndorsementsTab />;
    case 'signatures':
      return <SignaturesTab />;
    case 'trail':
      return <TrailTab />;
    case 'reports':
      return <ReportsTab />;
  }
}
