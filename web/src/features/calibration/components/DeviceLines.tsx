import { Button } from '@blueprintjs/core';
import { AddIcon, TrashIcon } from '@blueprintjs/icons';
import { useQuery } from '@tanstack/react-query';
import { useFieldArray, useWatch, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { CALIBRATION_LIMITS, EXTRA_POINTS, SERVICES, type Price } from '@/lib/api/calibration';
import { fetchDevicePage } from '@/lib/api/devices';
import { currencyOf, emptyDevice, priceOf, totalOf, type FormValues } from '../form';
import { Field } from './Field';
import { useHeld } from './held';
import { useMoney } from './money';
import { useTypeName } from './typeNames';

/** What a list of device lines shows: everything (PC), the devices or their services (phone steps). */
export type LinesMode = 'all' | 'devices' | 'services';

interface Props {
  form: UseFormReturn<FormValues>;
  prices: readonly Price[];
  mode?: LinesMode;
  readOnly?: boolean;
}

/** The devices of an application, each with its service and price, and the total in the currency. */
export function DeviceLines({ form, prices, mode = 'all', readOnly = false }: Props) {
  const { t } = useTranslation('calibration');
  const money = useMoney();
  const typeName = useTypeName();
  const { fields, append, remove } = useFieldArray({ control: form.control, name: 'devices' });
  const devices = useWatch({ control: form.control, name: 'devices' }) ?? [];
  const errors = form.formState.errors.devices;
  const currency = currencyOf(prices);
  const types = [...new Set(prices.map((p) => p.deviceTypeId))];
  const mayList = useHeld('device.list');
  const mine = useQuery({
    queryKey: ['calibration', 'my-devices'],
    queryFn: () => fetchDevicePage({ start: 1, pageSize: CALIBRATION_LIMITS.items }),
    enabled: mayList && !readOnly && mode !== 'services',
  });
  const picked = new Set(devices.map((d) => d.deviceId).filter((id) => id !== null));
  const showDevice = mode !== 'services';
  const showService = mode !== 'devices';
  const listError = errors?.root?.message ?? errors?.message;

  return (
    <div className="jc-cal-lines" data-testid="calibration-lines">
      {fields.length === 0 && <p className="jc-cal-muted">{t('form.noDevices')}</p>}
      {fields.map((field, index) => {
        const line = devices[index] ?? field;
        const error = errors?.[index];
        const price = priceOf(prices, line.deviceTypeId, line.service);
        const id = (name: string) => `device-${index}-${name}`;
        const console = line.deviceId !== null;
        return (
          <fieldset key={field.id} className="jc-cal-line" data-testid="calibration-line" disabled={readOnly}>
            <legend>#{index + 1} {console || !showDevice ? `${typeName(line.deviceTypeId)} · ${line.serialNumber}` : ''}</legend>
            {showDevice && !console && (
              <div className="jc-cal-row">
                <Field id={id('type')} label={t('field.deviceType')} error={error?.deviceTypeId?.message}>
                  <div className="bp6-html-select bp6-fill">
                    <select id={id('type')} data-testid="calibration-type"
                      {...form.register(`devices.${index}.deviceTypeId`, { setValueAs: (v) => (v === '' || v === null ? null : Number(v)) })}>
                      <option value="">—</option>
                      {types.map((type) => <option key={type} value={type}>{typeName(type)}</option>)}
                    </select>
                  </div>
                </Field>
                <Field id={id('model')} label={t('field.model')} error={error?.model?.message}>
                  <input id={id('model')} className="bp6-input bp6-fill" data-testid="calibration-model"
                    {...form.register(`devices.${index}.model`)} />
                </Field>
                <Field id={id('serial')} label={t('field.serialNumber')} error={error?.serialNumber?.message}>
                  <input id={id('serial')} className="bp6-input bp6-fill" data-testid="calibration-serial"
                    {...form.register(`devices.${index}.serialNumber`)} />
                </Field>
              </div>
            )}
            {showService && (
              <div className="jc-cal-row">
                <Field id={id('service')} label={t('field.service')} error={error?.service?.message}>
                  <div className="bp6-html-select bp6-fill">
                    <select id={id('service')} data-testid="calibration-service"
                      {...form.register(`devices.${index}.service`, { valueAsNumber: true })}>
                      {SERVICES.map((s) => {
                        const cents = priceOf(prices, line.deviceTypeId, s);
                        return (
                          <option key={s} value={s}>
                            {t(`service.${s}`)} · {cents === null ? t('form.notPriced') : money(cents, currency)}
                          </option>
                        );
                      })}
                    </select>
                  </div>
                </Field>
                {Number(line.service) === EXTRA_POINTS && (
                  <Field id={id('points')} label={t('field.pointsNote')} error={error?.pointsNote?.message}>
                    <input id={id('points')} className="bp6-input bp6-fill" data-testid="calibration-points"
                      {...form.register(`devices.${index}.pointsNote`)} />
                  </Field>
                )}
              </div>
            )}
            <div className="jc-cal-line-foot">
              {showService && (
                <span data-testid="calibration-line-price">
                  {t('field.price')}: <strong>{price === null ? '—' : money(price, currency)}</strong>
                </span>
              )}
              {!readOnly && mode !== 'services' && (
                <Button variant="minimal" intent="danger" icon={<TrashIcon />} text={t('form.remove')}
                  data-testid="calibration-remove" onClick={() => remove(index)} />
              )}
            </div>
          </fieldset>
        );
      })}
      {listError && <div className="bp6-form-helper-text jc-cal-error" role="alert">{listError}</div>}
      {!readOnly && mode !== 'services' && (
        <div className="jc-cal-actions">
          <Button icon={<AddIcon />} text={t('form.addTyped')} data-testid="calibration-add"
            disabled={fields.length >= CALIBRATION_LIMITS.items}
            onClick={() => append(emptyDevice(types.length === 1 ? types[0] : null))} />
          {mine.data && mine.data.data.length > 0 && (
            <div className="bp6-html-select">
              <select aria-label={t('form.pickMine')} data-testid="calibration-pick" value=""
                onChange={(event) => {
                  const device = mine.data.data.find((d) => d.deviceId === Number(event.target.value));
                  if (device) {
                    append({ ...emptyDevice(device.typeId), deviceId: device.deviceId, guid: device.deviceGuid,
                      model: device.deviceTypeName, serialNumber: device.deviceGuid });
                  }
                }}>
                <option value="">{t('form.pickMine')}</option>
                {mine.data.data.filter((d) => !picked.has(d.deviceId)).map((d) => (
                  <option key={d.deviceId} value={d.deviceId}>{d.deviceName} · {d.deviceGuid}</option>
                ))}
              </select>
            </div>
          )}
        </div>
      )}
      {showService && (
        <p className="jc-cal-total" data-testid="calibration-total">
          {t('field.total')}: <strong>{money(totalOf(prices, devices.map((d) => ({ ...d, service: Number(d.service) }))), currency)}</strong>
        </p>
      )}
    </div>
  );
}
