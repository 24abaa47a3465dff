import { Callout, NonIdealState } from '@blueprintjs/core';
import { SearchIcon } from '@blueprintjs/icons';
import { useTranslation } from 'react-i18next';
import { problemOf } from '../api/quickQuery';

/** Why a lookup shows nothing: too many lookups (wait), a gone link, or a failure. */
export function LookupFailed({ error }: { error: unknown }) {
  const { t } = useTranslation('quickquery');
  const problem = problemOf(error);
  return (
    <Callout intent={problem === 'throttled' ? 'warning' : 'danger'} role="alert" data-testid={`quick-${problem}`}>
      {t(problem)}
    </Callout>
  );
}

/** One neutral message for a number nobody has and for one whose trips have not started. */
export function NothingFound() {
  const { t } = useTranslation('quickquery');
  return (
    <div data-testid="quick-not-found">
      <NonIdealState icon={<SearchIcon />} description={t('notFound')} />
    </div>
  );
}
