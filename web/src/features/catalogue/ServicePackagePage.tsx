import { H2, NonIdealState, Spinner, Tab, Tabs } from '@blueprintjs/core';
import { LockIcon } from '@blueprintjs/icons';
import { lazy, Suspense, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { usePermissions } from '@/lib/permissions';
import { CATALOGUE_TABS } from './tabs';
import './catalogue.css';

const PANELS = Object.fromEntries(CATALOGUE_TABS.map((tab) => [tab.id, lazy(tab.panel)]));

/** The service package configuration: one tab per part of what is sold, the chosen one in `?tab=`. */
export default function ServicePackagePage() {
  const { t } = useTranslation(['catalogue', 'app']);
  const held = usePermissions();
  const [params, setParams] = useSearchParams();
  const tabs = useMemo(() => CATALOGUE_TABS.filter((tab) => held.has(tab.permission)), [held]);
  const chosen = tabs.find((tab) => tab.id === params.get('tab')) ?? tabs[0];

  return (
    <div className="jc-cat" data-testid="catalogue-page">
      <header className="jc-cat-head">
        <H2>{t('app:route.servicePackage')}</H2>
        <p>{t('subtitle')}</p>
      </header>
      {chosen === undefined ? (
        <NonIdealState icon={<LockIcon />} title={t('nothing')} />
      ) : (
        <Tabs id="catalogue-tabs" selectedTabId={chosen.id} renderActiveTabPanelOnly large
          onChange={(id) => setParams({ tab: String(id) })}>
          {tabs.map((tab) => {
            const Panel = PANELS[tab.id]!;
            return (
              <Tab key={tab.id} id={tab.id} title={t(tab.title)} data-testid={`catalogue-tab-${tab.id}`}
                panel={<Suspense fallback={<Spinner />}><Panel /></Suspense>} />
            );
          })}
        </Tabs>
      )}
    </div>
  );
}
