import { Button, HTMLTable, Tag } from '@blueprintjs/core';
import { CogIcon } from '@blueprintjs/icons';
import { useTranslation } from 'react-i18next';
import { CONSOLE_CAMP, type ConfigKey, type Overview } from '../api/payConfig';
import { campName, providerName } from '../labels';

interface CampTableProps {
  overview: Overview;
  /** The operator may open a configuration (customized.list:payConfig). */
  canConfigure: boolean;
  onOpen: (key: ConfigKey) => void;
}

/**
 * The camps, each with its platforms (title and top domain) and, for each provider of the
 * edition, whether it has its own configuration or uses the console's. A phone reads each camp as
 * a card (jc-phone-cards).
 */
export function CampTable({ overview, canConfigure, onOpen }: CampTableProps) {
  const { t } = useTranslation('platforms');
  return (
    <HTMLTable className="jc-pf-table jc-phone-cards" striped data-testid="pf-camps">
      <thead>
        <tr>
          <th>{t('column.camp')}</th>
          <th>{t('column.platforms')}</th>
          {overview.providers.map((provider) => <th key={provider}>{providerName(t, provider)}</th>)}
        </tr>
      </thead>
      <tbody>
        {overview.camps.map(({ camp, platforms, own }) => (
          <tr key={camp} data-testid="pf-camp" data-camp={camp}>
            <td data-label={t('column.camp')} className="jc-pf-camp">{campName(t, camp)}</td>
            <td data-label={t('column.platforms')}>
              {platforms.length === 0 ? <span className="jc-pf-muted">{t('noPlatform')}</span> : (
                <ul className="jc-pf-platforms">
                  {platforms.map((platform) => (
                    <li key={platform.topDomain} data-testid="pf-platform">
                      <span className="jc-pf-title">{platform.title}</span>
                      <span className="jc-pf-domain">{platform.topDomain}</span>
                    </li>
                  ))}
                </ul>
              )}
            </td>
            {overview.providers.map((provider) => {
              const mine = own[provider] === true;
              // the console's own accounts are the server's environment: nothing to set here
              const environment = camp === CONSOLE_CAMP;
              return (
                <td key={provider} data-label={providerName(t, provider)}>
                  <span className="jc-pf-provider">
                    <Tag minimal round intent={mine ? 'success' : 'none'} data-testid={`pf-status-${camp}-${provider}`}
                      data-own={mine}>
                      {environment ? t('status.environment') : mine ? t('status.own') : t('status.console')}
                    </Tag>
                    {canConfigure && !environment && (
                      <Button size="small" variant="minimal" icon={<CogIcon />} text={t('configure')}
                        aria-label={t('configureWhat', { provider: providerName(t, provider), camp: campName(t, camp) })}
                        onClick={() => onOpen({ camp, provider })} data-testid={`pf-open-${camp}-${provider}`} />
                    )}
                  </span>
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </HTMLTable>
  );
}
