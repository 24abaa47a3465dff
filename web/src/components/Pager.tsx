import { Button, ButtonGroup } from '@blueprintjs/core';
import { ChevronLeftIcon, ChevronRightIcon } from '@blueprintjs/icons';
import { useTranslation } from 'react-i18next';

export interface PagerProps {
  /** The current page, 1-based. */
  page: number;
  /** Rows per page. */
  pageSize: number;
  /** Rows in all pages. */
  total: number;
  /** Asks for another page. */
  onChange: (page: number) => void;
  /** Disables the buttons while a page loads. */
  disabled?: boolean;
}

/** A compact pager: the total, previous and next, and where the user is. */
export function Pager({ page, pageSize, total, onChange, disabled = false }: PagerProps) {
  const { t } = useTranslation('dialogs');
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return (
    <nav className="jc-pager" aria-label={t('pager.label')}>
      <span className="jc-pager-total">{t('pager.total', { count: total })}</span>
      <ButtonGroup variant="outlined" size="small">
        <Button
          icon={<ChevronLeftIcon />}
          aria-label={t('pager.previous')}
          disabled={disabled || page <= 1}
          onClick={() => onChange(page - 1)}
        />
        <Button text={t('pager.page', { page, pages })} disabled className="jc-pager-position" />
        <Button
          icon={<ChevronRightIcon />}
          aria-label={t('pager.next')}
          disabled={disabled || page >= pages}
          onClick={() => onChange(page + 1)}
        />
      </ButtonGroup>
    </nav>
  );
}
