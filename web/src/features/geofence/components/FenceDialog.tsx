/** Makes or changes a fence: its name and areas, drawn on the map or typed. */
import { Button, Callout, Dialog, DialogBody, DialogFooter, FormGroup, InputGroup, SegmentedControl, TextArea } from '@blueprintjs/core';
import { AddIcon, TrashIcon } from '@blueprintjs/icons';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FENCE_LIMITS, useSaveFence, type Area, type Fence } from '../api/fences';
import { checkFence, emptyArea, formOf, numberOf, parsePoints, pointsText, type AreaForm, type FenceForm } from '../fenceForm';
import { FenceMap } from './FenceMap';

const fixed = (value: number) => String(Math.round(value * 1e6) / 1e6);

/** What the map can draw of a half-typed area. */
function drawable(area: AreaForm): Area | null {
  if (area.shape === 'circle') {
    const lat = numberOf(area.lat);
    const lon = numberOf(area.lon);
    const radius = numberOf(area.radius);
    return lat !== null && lon !== null && radius !== null && radius > 0 ? { shape: 'circle', lat, lon, radius } : null;
  }
  const points = parsePoints(area.points);
  return points && points.length > 0 ? { shape: 'polygon', points } : null;
}

export function FenceDialog({ fence, onClose }: { fence: Fence | 'new' | null; onClose: () => void }) {
  const { t } = useTranslation('geofence');
  return (
    <Dialog isOpen={fence !== null} onClose={onClose} className="jc-gf-dialog" title={t(fence === 'new' ? 'addTitle' : 'editTitle')}>
      {fence !== null && <FenceEditor fence={fence === 'new' ? null : fence} onDone={onClose} />}
    </Dialog>
  );
}

function FenceEditor({ fence, onDone }: { fence: Fence | null; onDone: () => void }) {
  const { t } = useTranslation('geofence');
  const save = useSaveFence();
  const [form, setForm] = useState<FenceForm>(() => formOf(fence));
  const [active, setActive] = useState(0);
  // Checked from the first save on, then again at every change: a fixed field loses its message at once.
  const [tried, setTried] = useState(false);
  const checked = useMemo(() => checkFence(t, form), [t, form]);
  const problems: Record<string, string> = tried && 'problems' in checked ? checked.problems : {};
  const [failure, setFailure] = useState<string | null>(null);
  const shown = useMemo(() => form.areas.map(drawable), [form.areas]);

  const setArea = (index: number, change: Partial<AreaForm>) =>
    setForm((f) => ({ ...f, areas: f.areas.map((a, i) => (i === index ? { ...a, ...change } : a)) }));
  const addArea = (shape: AreaForm['shape']) => {
    setForm((f) => ({ ...f, areas: [...f.areas, emptyArea(shape)] }));
    setActive(form.areas.length);
  };
  const removeArea = (index: number) => {
    setForm((f) => ({ ...f, areas: f.areas.filter((_, i) => i !== index) }));
    setActive(0);
  };
  const pick = (lat: number, lon: number) => {
    const area = form.areas[active];
    if (!area) return;
    if (area.shape === 'circle') setArea(active, { lat: fixed(lat), lon: fixed(lon), radius: area.radius || '500' });
    else setArea(active, { points: pointsText([...(parsePoints(area.points) ?? []), { lat, lon }]) });
  };
  const submit = () => {
    setFailure(null);
    setTried(true);
    if ('problems' in checked) return;
    save.mutate({ input: checked.input, id: fence?.id }, {
      onSuccess: onDone,
      onError: (error) => setFailure(error instanceof Error ? error.message : t('error.save')),
    });
  };

  return (
    <form onSubmit={(e) => { e.preventDefault(); submit(); }} data-testid="fence-form" noValidate>
      <DialogBody className="jc-gf-body">
        <FormGroup label={t('field.name')} labelFor="fence-name" intent={problems.name ? 'danger' : 'none'}
          helperText={problems.name}>
          <InputGroup id="fence-name" value={form.name} onValueChange={(name) => setForm((f) => ({ ...f, name }))}
            maxLength={FENCE_LIMITS.name * 2} intent={problems.name ? 'danger' : 'none'} data-testid="fence-name" />
        </FormGroup>
        <p className="jc-gf-hint">{t(form.areas[active]?.shape === 'polygon' ? 'hint.polygon' : 'hint.circle')}</p>
        <FenceMap areas={shown} active={active} onPick={pick} />
        {problems.areas && <Callout intent="danger" compact>{problems.areas}</Callout>}
        <ol className="jc-gf-areas">
          {form.areas.map((area, index) => (
            <li key={index} className={index === active ? 'jc-gf-area jc-gf-area-active' : 'jc-gf-area'}
              data-testid="fence-area" onFocus={() => setActive(index)}>
              <div className="jc-gf-area-head">
                <SegmentedControl small value={area.shape} onValueChange={(shape) => setArea(index, { shape: shape as AreaForm['shape'] })}
                  options={[{ value: 'circle', label: t('shape.circle') }, { value: 'polygon', label: t('shape.polygon') }]} />
                <Button variant="minimal" small text={t(index === active ? 'drawing' : 'draw')} active={index === active}
                  onClick={() => setActive(index)} data-testid={`area-draw-${index}`} />
                <Button variant="minimal" small intent="danger" icon={<TrashIcon />} aria-label={t('removeArea')}
                  title={t('removeArea')} onClick={() => removeArea(index)} data-testid={`area-remove-${index}`} />
              </div>
              {area.shape === 'circle' ? (
                <div className="jc-gf-row">
                  <FormGroup label={t('field.lat')} labelFor={`area-lat-${index}`}>
                    <InputGroup id={`area-lat-${index}`} inputMode="decimal" value={area.lat}
                      onValueChange={(lat) => setArea(index, { lat })} data-testid={`area-lat-${index}`} />
                  </FormGroup>
                  <FormGroup label={t('field.lon')} labelFor={`area-lon-${index}`}>
                    <InputGroup id={`area-lon-${index}`} inputMode="decimal" value={area.lon}
                      onValueChange={(lon) => setArea(index, { lon })} data-testid={`area-lon-${index}`} />
                  </FormGroup>
                  <FormGroup label={t('field.radius')} labelFor={`area-radius-${index}`}>
                    <InputGroup id={`area-radius-${index}`} inputMode="decimal" value={area.radius}
                      onValueChange={(radius) => setArea(index, { radius })} data-testid={`area-radius-${index}`} />
                  </FormGroup>
                </div>
              ) : (
                <FormGroup label={t('field.points')} labelFor={`area-points-${index}`} helperText={t('hint.points')}>
                  <TextArea id={`area-points-${index}`} fill rows={4} value={area.points}
                    onChange={(e) => setArea(index, { points: e.target.value })} data-testid={`area-points-${index}`} />
                </FormGroup>
              )}
              {problems[`areas.${index}`] && (
                <div className="jc-gf-error" role="alert" data-testid={`area-error-${index}`}>{problems[`areas.${index}`]}</div>
              )}
            </li>
          ))}
        </ol>
        {form.areas.length < FENCE_LIMITS.areas && (
          <div className="jc-gf-row">
            <Button icon={<AddIcon />} text={t('addCircle')} onClick={() => addArea('circle')} data-testid="fence-add-circle" />
            <Button icon={<AddIcon />} text={t('addPolygon')} onClick={() => addArea('polygon')} data-testid="fence-add-polygon" />
          </div>
        )}
        {failure && <Callout intent="danger" data-testid="fence-form-error">{failure}</Callout>}
      </DialogBody>
      <DialogFooter actions={<>
        <Button text={t('cancel')} onClick={onDone} />
        <Button type="submit" intent="primary" text={t('save')} loading={save.isPending} data-testid="fence-save" />
      </>} />
    </form>
  );
}
