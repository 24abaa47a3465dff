/** A fence's crossings, newest first: which device entered or left it, and when. */
import { Callout, Dialog, DialogBody, HTMLTable, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Pager } from '@/components/Pager';
import { formatInstant } from '@/lib/units';
import { useEvents, type Fence } from '../api/fences';

const PAGE_SIZE = 20;

export function FenceEventsDialog({ fence, onClose }: { fence: Fence | null; onClose: () => void }) {
  const { t } = useTranslation('geofence');
  return (
    <Dialog isOpen={fence !== null} onClose={onClose} className="jc-gf-dialog" title={t('eventsTitle', { name: fence?.name ?? '' })}>
      <DialogBody>{fence !== null && <EventTable fenceId={fence.id} />}</DialogBody>
    </Dialog>
  );
}

function EventTable({ fenceId }: { fenceId: number }) {
  const { t, i18n } = useTranslation('geofence');
  const [start, setStart] = useState(1);
  const events = useEvents(fenceId, start, PAGE_SIZE);
  if (events.data === undefined) return events.isError ? <Callout intent="danger">{t('error.load')}</Callout> : <Spinner />;
  if (events.data.totalCount === 0) return <NonIdealState title={t('noEvents')} />;
  return (
    <>
      <div className="jc-gf-table-wrap">
        <HTMLTable striped compact className="jc-gf-table" data-testid="fence-events">
          <thead>
            <tr><th>{t('column.device')}</th><th>{t('column.crossing')}</th><th>{t('column.at')}</th></tr>
          </thead>
          <tbody>
            {events.data.data.map((e) => (
              <tr key={e.id} data-testid="fence-event">
                <td>{e.deviceName}</td>
                <td><Tag minimal intent={e.entered ? 'success' : 'warning'}>{t(e.entered ? 'entered' : 'left')}</Tag></td>
                <td>{formatInstant(e.at, i18n.language)}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      </div>
      <Pager page={start} pageSize={PAGE_SIZE} total={events.data.totalCount} onChange={setStart} />
    </>
  );
}
