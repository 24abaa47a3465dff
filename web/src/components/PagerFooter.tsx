import { FormGroup, HTMLSelect } from '@blueprintjs/core';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { PAGE_SIZES } from '@/lib/paging';
import { Pager, type PagerProps } from './Pager';
import './pagerFooter.css';

export interface PagerFooterProps extends PagerProps {
  /** Another page size was chosen (the list then starts again at its first page). */
  onPageSizeChange: (pageSize: number) => void;
}

/** The foot of a long list: how many rows a page (10 to 40), and the pager. */
export function PagerFooter({ onPageSizeChange, ...pager }: PagerFooterProps) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div className="jc-pager-footer">
      <FormGroup inline label={t('pager.pageSize')} labelFor={id} className="jc-pager-footer-size">
        <HTMLSelect
          id={id}
          value={pager.pageSize}
          onChange={(event) => onPageSizeChange(Number(event.currentTarget.value))}
          options={PAGE_SIZES.map((size) => ({ value: size, label: t('pager.perPage', { size }) }))}
          data-testid="page-size"
        />
      </FormGroup>
      <Pager {...pager} />
    </div>
  );
}
