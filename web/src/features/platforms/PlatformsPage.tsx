import { Card, H2, NonIdealState, Spinner } from '@blueprintjs/core';
import { ErrorIcon } from '@blueprintjs/icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePermissions } from '@/lib/permissions';
import { PAY_CONFIG_PERMISSION, useOverview, type ConfigKey } from './api/payConfig';
import { CampTable } from './components/CampTable';
import { ConfigDrawer } from './components/ConfigDrawer';
import './platforms.css';

/**
 * White-label platforms (/customized/list): the camps grouping them, and for each camp and
 * provider of the edition the merchant account its orders are paid to, its own or the console's.
 * Seeing and changing a configuration takes customized.list:payConfig.
 */
export default function PlatformsPage() {
  const { t } = useTranslation(['platforms', 'app']);
  const canConfigure = usePermissions().has(PAY_CONFIG_PERMISSION);
  const query = useOverview();
  const [opened, setOpened] = useState<ConfigKey | null>(null);
  const overview = query.data;
  const openedCamp = overview?.camps.find((camp) => camp.camp === opened?.camp);

  return (
    <div className="jc-pf" data-testid="platforms-page">
      <header className="jc-pf-head">
        <H2>{t('app:route.customizedList')}</H2>
        <p>{t('subtitle')}</p>
      </header>
      <Card className="jc-pf-card" elevation={0}>
        {overview === undefined ? (
          query.isError ? <NonIdealState icon={<ErrorIcon />} title={t('loadFailed')} /> : <Spinner />
        ) : (
          <CampTable overview={overview} canConfigure={canConfigure} onOpen={setOpened} />
        )}
      </Card>
      {canConfigure && (
        <ConfigDrawer target={opened} platforms={openedCamp?.platforms ?? []} onClose={() => setOpened(null)} />
      )}
    </div>
  );
}
