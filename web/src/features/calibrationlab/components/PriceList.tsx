import { Button, Callout, FormGroup, HTMLSelect, HTMLTable, InputGroup, Spinner } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePrices, useUpdatePrice, type Price } from '@/lib/api/calibrationLab';
import { ApiError } from '@/lib/http';
import { centsText, formatCents, parseCents } from '@/lib/money';
import { notify } from '@/lib/notify';

const SERVICES = [1, 2, 3] as const;

/** The lab's price list: each device type's price per service, changed one at a time (applications keep theirs). */
export function PriceList() {
  const { t, i18n } = useTranslation('calibrationlab');
  const prices = usePrices();
  const [editing, setEditing] = useState<Price | null>(null);
  if (!prices.data) return <Spinner className="jc-cl-spinner" />;
  const rows = [...prices.data].sort((a, b) => a.deviceTypeId - b.deviceTypeId || a.service - b.service);
  return (
    <div data-testid="price-list">
      <HTMLTable className="jc-phone-cards jc-cl-table" striped>
        <thead>
          <tr><th>{t('prices.type')}</th><th>{t('prices.service')}</th><th>{t('prices.price')}</th><th aria-label={t('list.actions')} /></tr>
        </thead>
        <tbody>
          {rows.map((price) => (
            <tr key={`${price.deviceTypeId}-${price.service}`} data-testid="price-row">
              <td data-label={t('prices.type')}>{price.deviceTypeId}</td>
              <td data-label={t('prices.service')}>{t(`service.${price.service}`)}</td>
              <td data-label={t('prices.price')}>{formatCents(price.price, price.currency ?? 'CNY', i18n.language)}</td>
              <td><Button variant="minimal" text={t('prices.edit')} onClick={() => setEditing(price)} /></td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
      <PriceForm key={editing ? `${editing.deviceTypeId}-${editing.service}` : 'new'} initial={editing}
        onDone={() => setEditing(null)} />
    </div>
  );
}

/** Sets a price: of the row being edited, or of a device type and service typed in. */
function PriceForm({ initial, onDone }: { initial: Price | null; onDone: () => void }) {
  const { t } = useTranslation('calibrationlab');
  const update = useUpdatePrice();
  const [typeId, setTypeId] = useState(initial ? String(initial.deviceTypeId) : '');
  const [service, setService] = useState<number>(initial?.service ?? 1);
  const [amount, setAmount] = useState(initial ? centsText(initial.price) : '');
  const [problem, setProblem] = useState<string | null>(null);
  const save = () => {
    const cents = parseCents(amount, 7);
    if (!/^\d{1,10}$/.test(typeId.trim()) || Number(typeId) < 1) return setProblem(t('prices.typeProblem'));
    if (cents === null || cents <= 0) return setProblem(t('prices.priceProblem'));
    update.mutate({ deviceTypeId: Number(typeId), service, price: cents }, {
      onSuccess: () => { notify.success(t('prices.saved')); onDone(); },
      onError: (error) => setProblem(error instanceof ApiError
        ? Object.values(error.errors ?? {}).flat().join(' ') || error.message : t('error.required')),
    });
  };
  return (
    <form className="jc-cl-filters jc-cl-price-form" onSubmit={(event) => { event.preventDefault(); save(); }}>
      <FormGroup label={t('prices.type')} labelFor="cl-price-type">
        <InputGroup id="cl-price-type" value={typeId} inputMode="numeric" readOnly={initial !== null}
          onChange={(event) => { setTypeId(event.currentTarget.value); setProblem(null); }} />
      </FormGroup>
      <FormGroup label={t('prices.service')} labelFor="cl-price-service">
        <HTMLSelect id="cl-price-service" value={service} disabled={initial !== null}
          onChange={(event) => setService(Number(event.currentTarget.value))}
          options={SERVICES.map((s) => ({ value: s, label: t(`service.${s}`) }))} />
      </FormGroup>
      <FormGroup label={t('prices.price')} labelFor="cl-price-amount">
        <InputGroup id="cl-price-amount" value={amount} inputMode="decimal"
          onChange={(event) => { setAmount(event.currentTarget.value); setProblem(null); }} />
      </FormGroup>
      <Button type="submit" intent="primary" text={initial ? t('prices.save') : t('prices.add')} loading={update.isPending} />
      {initial && <Button text={t('prices.cancel')} onClick={onDone} />}
      {problem && <Callout intent="danger">{problem}</Callout>}
    </form>
  );
}
