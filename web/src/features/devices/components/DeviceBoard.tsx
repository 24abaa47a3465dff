import { Card, Classes } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { StateTag } from '@/components/DeviceTags';
import type { Device } from '@/lib/api/devices';
import { detailHref } from '@/lib/deviceListQuery';
import { deviceState } from '@/lib/deviceValues';
import { formatInstant, formatValue } from '@/lib/units';

/** The board mode: a card per device with its live values and state, edged in its alarm colour. */
export function DeviceBoard({ devices, canOpen, stale }: {
  devices: readonly Device[];
  /** The caller may open a device's detail. */
  canOpen: boolean;
  /** The page shown is the previous one while the next loads. */
  stale: boolean;
}) {
  return (
    <ul className={stale ? 'jc-board jc-stale' : 'jc-board'} data-testid="device-board">
      {devices.map((device) => (
        <li key={device.deviceId}>
          <BoardCard device={device} canOpen={canOpen} />
        </li>
      ))}
    </ul>
  );
}

function BoardCard({ device, canOpen }: { device: Device; canOpen: boolean }) {
  const { t, i18n } = useTranslation('devices');
  const state = deviceState(device);
  const { temperatureUnit: unit, displayPrecision: precision } = device;
  const body = (
    <>
      <div className="jc-board-head">
        <span className="jc-board-name">{device.deviceName}</span>
        <StateTag device={device} />
      </div>
      <div className="jc-board-values">
        {device.lastReadingAt === null ? (
          <span className={Classes.TEXT_MUTED}>{t('board.noReading')}</span>
        ) : (
          <>
            {device.temperature !== null && <span className="jc-board-value">{formatValue('t', device.temperature, unit, precision)}</span>}
            {device.humidity !== null && <span className="jc-board-value jc-board-value-h">{formatValue('h', device.humidity, unit, precision)}</span>}
          </>
        )}
      </div>
      <div className={`${Classes.TEXT_MUTED} jc-board-foot`}>
        <span className="jc-mono">{device.deviceGuid}</span>
        {device.lastReadingAt !== null && (
          <time dateTime={device.lastReadingAt}>{formatInstant(device.lastReadingAt, i18n.language, false)}</time>
        )}
      </div>
    </>
  );
  return (
    <Card
      className={`jc-board-card jc-board-${state}`}
      elevation={0}
      data-testid="board-card"
      data-device-name={device.deviceName}
      data-state={state}
    >
      {canOpen ? (
        <Link to={detailHref(device.deviceId)} className="jc-board-link" data-testid="board-link">
          {body}
        </Link>
      ) : (
        body
      )}
    </Card>
  );
}
