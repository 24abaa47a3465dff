import { Card, H2, Tab, Tabs } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { SharesPanel } from './components/SharesPanel';
import { TemplatesPanel } from './components/TemplatesPanel';
import './sharing.css';

const TABS = ['mine', 'withMe', 'templates'] as const;
type SharingTab = (typeof TABS)[number];
const isTab = (value: string | null): value is SharingTab => (TABS as readonly (string | null)[]).includes(value);

/** Sharing (/consumer/sharer): what I shared, what was shared with me, and my permission templates. */
export default function SharingPage() {
  const { t } = useTranslation(['sharing', 'app']);
  const [params, setParams] = useSearchParams();
  const raw = params.get('tab');
  const tab: SharingTab = isTab(raw) ? raw : 'mine';
  return (
    <div className="jc-sh" data-testid="sharing-page">
      <header className="jc-sh-head">
        <H2>{t('app:route.consumerSharer')}</H2>
        <p>{t('subtitle')}</p>
      </header>
      <Card className="jc-sh-card" elevation={0}>
        <Tabs id="jc-sharing-tabs" className="jc-sh-tabs" selectedTabId={tab} renderActiveTabPanelOnly size="large"
          onChange={(id) => setParams(id === 'mine' ? {} : { tab: String(id) }, { replace: true })}>
          <Tab id="mine" title={t('tab.mine')} data-testid="sharing-tab-mine" panel={<SharesPanel key="mine" direction="mine" />} />
          <Tab id="withMe" title={t('tab.withMe')} data-testid="sharing-tab-withMe" panel={<SharesPanel key="withMe" direction="withMe" />} />
          <Tab id="templates" title={t('tab.templates')} data-testid="sharing-tab-templates" panel={<TemplatesPanel />} />
        </Tabs>
      </Card>
    </div>
  );
}
