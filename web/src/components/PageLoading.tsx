import { Spinner } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';

/** A page still fetching its code: a spinner where the page will be, never over the console or its dialogs. */
export function PageLoading() {
  const { t } = useTranslation();
  return (
    <div className="jc-page-loading" role="status" aria-live="polite" aria-label={t('common:loading')}>
      <Spinner size={32} />
    </div>
  );
}
