import { Button, Callout, Card, Classes, H2, H3, Icon, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import {
  ArrowRightIcon, CalendarIcon, ChevronRightIcon, CrownIcon, ErrorIcon, InboxIcon, LayoutGridIcon, MapIcon,
  MapMarkerIcon, NotificationsIcon, SettingsIcon, ShieldIcon, StarIcon, TemperatureIcon, TickCircleIcon, TimeIcon,
} from '@blueprintjs/icons';
import { lazy, Suspense, useMemo, useState, type CSSProperties, type JSX, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ROUTES } from '@/app/routes';
import { devicesOnMap } from '@/components/map/markers';
import { useDeviceMarkers } from '@/lib/api/devices';
import { RichText } from '@/components/RichText';
import type { AccountInfo } from '@/lib/api/accountInfo';
import { useHomeCounts, type HomeCounts } from '@/features/home/api/homeCounts';
import { OPERATOR_HOME_PERMISSION } from '@/features/home/api/operatorHomeCounts';
import { useExpiredCount, type ExpiredFlag } from '@/lib/api/expired';
import { useNotice } from '@/lib/api/notice';
import { openExpiredDialog } from '@/lib/expiredDialogStore';
import { namedIcon } from '@/lib/icons';
import { useSession } from '@/lib/session';
import { useSlots } from '@/lib/slots';
import { DEVICE_TILES, type DeviceTile } from './deviceTiles';
import { OperatorHome } from './OperatorHome';
import { dayPart, quickLinks } from './quickLinks';
import { useHomeTiles } from './api/homeTiles';
import { TilesDialog } from './TilesDialog';

const DeviceMap = lazy(() => import('@/components/map/DeviceMap'));
import './home.css';

const VIP_SERVICE_PATH = '/vip/service';

/** The landing page after login: greeting, device counts, service status, membership, notice and quick links. */
export default function HomePage() {
  const { info, sceneId, scenePermissions, permissions } = useSession();
  if (!info) return null;
  // The back office looks after every customer: their own devices (usually none) say nothing.
  if (permissions.has(OPERATOR_HOME_PERMISSION)) return <OperatorHome info={info} />;
  return (
    <div className="jc-home" data-testid="home-page">
      <Greeting info={info} />
      <div className="jc-home-grid">
        <DeviceCounts canList={permissions.has('device.list')} accountId={info.baseAccount.id} />
        {permissions.has('device.list') && <DeviceMapPanel canOpen={permissions.has('device.detail')} />}
        <ServiceStatus accountId={info.baseAccount.id} />
        <Membership premium={info.premiumState} />
        <QuickLinks held={scenePermissions} sceneId={sceneId} />
        <CurrentNotice />
      </div>
    </div>
  );
}

function Greeting({ info }: { info: AccountInfo }) {
  const { t, i18n } = useTranslation('home');
  const now = new Date();
  const name = info.baseAccount.realName?.trim() || info.baseAccount.userName;
  const today = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'full' }).format(now);
  return (
    <header className="jc-home-hero">
      <div>
        <H2 className="jc-home-greeting">{t(`greeting.${dayPart(now.getHours())}`, { name })}</H2>
        <p className={Classes.TEXT_MUTED}>{t('subtitle')}</p>
      </div>
      <time className="jc-home-date" dateTime={now.toISOString().slice(0, 10)}>
        {today}
      </time>
    </header>
  );
}

function Panel({ title, icon, className, children, extra }: {
  title: string;
  icon: JSX.Element;
  className: string;
  children: ReactNode;
  extra?: ReactNode;
}) {
  return (
    <Card className={`jc-home-card ${className}`} elevation={0}>
      <div className="jc-home-card-head">
        <H3 className="jc-home-card-title">
          <Icon icon={icon} />
          <span>{title}</span>
        </H3>
        {extra}
      </div>
      {children}
    </Card>
  );
}

interface TileSpec {
  flag: ExpiredFlag;
  testId: string;
  tone: 'danger' | 'warning' | 'primary';
  icon: JSX.Element;
  label: string;
}

const TILES: readonly TileSpec[] = [
  { flag: 1, testId: 'home-tile-expired', tone: 'danger', icon: <ErrorIcon />, label: 'expired' },
  { flag: 2, testId: 'home-tile-expiring', tone: 'warning', icon: <TimeIcon />, label: 'expiring30' },
  { flag: 3, testId: 'home-tile-expiring90', tone: 'primary', icon: <CalendarIcon />, label: 'expiring90' },
];

function ServiceStatus({ accountId }: { accountId: number }) {
  const { t } = useTranslation('home');
  const counts = [useExpiredCount(accountId, 1), useExpiredCount(accountId, 2), useExpiredCount(accountId, 3)];
  const settled = counts.every((count) => count.data !== undefined);
  const allClear = settled && counts.every((count) => count.data === 0);
  return (
    <Panel title={t('status.title')} icon={<ShieldIcon />} className="jc-home-status">
      <div className="jc-home-tiles">
        {TILES.map((tile, index) => (
          <StatusTile key={tile.flag} tile={tile} count={counts[index]?.data} failed={counts[index]?.isError ?? false} />
        ))}
      </div>
      {allClear ? (
        <Callout intent="success" icon={<TickCircleIcon />} className="jc-home-status-note">
          {t('status.allClear')}
        </Callout>
      ) : (
        <p className={`${Classes.TEXT_MUTED} jc-home-status-note`}>{t('status.hint')}</p>
      )}
    </Panel>
  );
}

function StatusTile({ tile, count, failed }: { tile: TileSpec; count: number | undefined; failed: boolean }) {
  const { t } = useTranslation('home');
  const label = t(`status.${tile.label}`);
  let value: ReactNode = count;
  if (count === undefined) value = failed ? '—' : <Spinner size={20} />;
  return (
    <button
      type="button"
      className={`jc-home-tile jc-home-tile-${tile.tone}${count ? ' jc-home-tile-active' : ''}`}
      data-testid={tile.testId}
      onClick={() => openExpiredDialog(tile.flag)}
      aria-label={count === undefined ? label : `${label}: ${count}`}
    >
      <span className="jc-home-tile-icon">
        <Icon icon={tile.icon} size={18} />
      </span>
      <span className="jc-home-tile-count">{value}</span>
      <span className="jc-home-tile-label">{label}</span>
      <span className="jc-home-tile-more">
        {t('status.view')}
        <Icon icon={<ChevronRightIcon />} size={12} />
      </span>
    </button>
  );
}

/** The tiles the user keeps (the device counts until they choose), in their order, and the "customise" dialog. */
function DeviceCounts({ canList, accountId }: { canList: boolean; accountId: number }) {
  const { t } = useTranslation('home');
  const counts = useHomeCounts();
  const tiles = useHomeTiles();
  const [customising, setCustomising] = useState(false);
  const shown = tiles.data?.tiles ?? DEVICE_TILES.map((tile) => tile.count);
  return (
    <Panel
      title={t('devices.title')}
      icon={<TemperatureIcon />}
      className="jc-home-devices"
      extra={
        tiles.data && (
          <Button
            icon={<SettingsIcon />}
            variant="minimal"
            size="small"
            text={t('tiles.open')}
            onClick={() => setCustomising(true)}
            data-testid="home-tiles-customise"
          />
        )
      }
    >
      <ul className="jc-home-counts" data-testid="home-counts" style={{ '--jc-home-count-columns': Math.min(shown.length, 9) } as CSSProperties}>
        {shown.map((name) => {
          const tile = DEVICE_TILES.find((candidate) => candidate.count === name);
          const expiry = EXPIRY_TILES.find((candidate) => candidate.name === name);
          return (
            <li key={name}>
              {tile && <CountTile tile={tile} counts={counts.data} failed={counts.isError} canList={canList} />}
              {expiry && <ExpiryCountTile tile={expiry} accountId={accountId} />}
            </li>
          );
        })}
      </ul>
      {tiles.data && <TilesDialog tiles={tiles.data} isOpen={customising} onClose={() => setCustomising(false)} />}
    </Panel>
  );
}

/** The service-expiry tiles a user may add to the device counts: they open the expired-service dialog. */
const EXPIRY_TILES: readonly { name: string; flag: ExpiredFlag; tone: DeviceTile['tone']; icon: DeviceTile['icon'] }[] = [
  { name: 'expiring30', flag: 2, tone: 'warning', icon: 'time' },
  { name: 'expiring90', flag: 3, tone: 'primary', icon: 'time' },
];

function ExpiryCountTile({ tile, accountId }: { tile: (typeof EXPIRY_TILES)[number]; accountId: number }) {
  const { t } = useTranslation('home');
  const count = useExpiredCount(accountId, tile.flag);
  const label = t(`tiles.name.${tile.name}`);
  let value: ReactNode = count.data;
  if (count.data === undefined) value = count.isError ? '—' : <Spinner size={18} />;
  return (
    <button
      type="button"
      className={`jc-home-count jc-home-count-${tile.tone} jc-home-count-link${count.data ? ' jc-home-count-active' : ''}`}
      data-testid={`home-count-${tile.name}`}
      aria-label={count.data === undefined ? label : `${label}: ${count.data}`}
      onClick={() => openExpiredDialog(tile.flag)}
    >
      <span className="jc-home-count-icon">
        <Icon icon={namedIcon(tile.icon)} size={16} />
      </span>
      <span className="jc-home-count-value">{value}</span>
      <span className="jc-home-count-label">{label}</span>
    </button>
  );
}

const EVERY_DEVICE = {};

/** Where the user's devices stand: those that reported a position; a click opens one. */
function DeviceMapPanel({ canOpen }: { canOpen: boolean }) {
  const { t } = useTranslation('home');
  const navigate = useNavigate();
  const devices = useDeviceMarkers(EVERY_DEVICE);
  const markers = useMemo(() => devicesOnMap(devices.data?.markers ?? []), [devices.data]);
  let body: ReactNode;
  if (devices.data === undefined) body = devices.isError ? <NonIdealState icon={<ErrorIcon />} title={t('map.failed')} /> : <Spinner size={24} />;
  else if (markers.length === 0) body = <NonIdealState icon={<MapMarkerIcon />} description={t('map.empty')} className="jc-home-notice-empty" />;
  else {
    body = (
      <Suspense fallback={<Spinner size={24} />}>
        <DeviceMap markers={markers} onSelect={canOpen ? (id) => navigate(`/device/detail/${id}`) : undefined} testId="home-device-map" className="jc-home-map-canvas" />
      </Suspense>
    );
  }
  return (
    <Panel title={t('map.title')} icon={<MapIcon />} className="jc-home-map">
      <div data-testid="home-map">{body}</div>
    </Panel>
  );
}

function CountTile({ tile, counts, failed, canList }: {
  tile: DeviceTile;
  counts: HomeCounts | undefined;
  failed: boolean;
  canList: boolean;
}) {
  const { t } = useTranslation('home');
  const label = t(`devices.${tile.count}`);
  const count = counts?.[tile.count];
  let value: ReactNode = count;
  if (count === undefined) value = failed ? '—' : <Spinner size={18} />;
  const body = (
    <>
      <span className="jc-home-count-icon">
        <Icon icon={namedIcon(tile.icon)} size={16} />
      </span>
      <span className="jc-home-count-value">{value}</span>
      <span className="jc-home-count-label">{label}</span>
    </>
  );
  const className = `jc-home-count jc-home-count-${tile.tone}${count ? ' jc-home-count-active' : ''}`;
  const aria = count === undefined ? label : `${label}: ${count}`;
  if (!canList || tile.href === null) {
    return (
      <div className={className} data-testid={`home-count-${tile.count}`} aria-label={aria} role="group">
        {body}
      </div>
    );
  }
  return (
    <Link to={tile.href} className={`${className} jc-home-count-link`} data-testid={`home-count-${tile.count}`} aria-label={aria}>
      {body}
    </Link>
  );
}

function Membership({ premium }: { premium: AccountInfo['premiumState'] }) {
  const { t } = useTranslation('home');
  const { offers } = useSlots();
  const member = premium.state === 1;
  return (
    <Panel
      title={t('membership.title')}
      icon={<CrownIcon />}
      className="jc-home-membership"
      extra={
        <Tag round intent={member ? 'warning' : 'none'} icon={member ? <StarIcon /> : undefined}>
          {member ? t('membership.premium') : t('membership.standard')}
        </Tag>
      }
    >
      {member ? (
        <>
          <p className="jc-home-membership-days">
            <strong>{premium.expiredCount}</strong> {t('membership.daysLeft', { count: premium.expiredCount })}
          </p>
          <p className={Classes.TEXT_MUTED}>{t('membership.premiumText')}</p>
        </>
      ) : (
        <p className={Classes.TEXT_MUTED}>{t('membership.standardText')}</p>
      )}
      {offers.link(VIP_SERVICE_PATH) && <Link
        to={VIP_SERVICE_PATH}
        className={`${Classes.BUTTON} ${member ? Classes.OUTLINED : Classes.INTENT_PRIMARY} jc-home-membership-link`}
      >
        <span className={Classes.BUTTON_TEXT}>{member ? t('membership.renew') : t('membership.open')}</span>
        <Icon icon={<ArrowRightIcon />} />
      </Link>}
    </Panel>
  );
}

function QuickLinks({ held, sceneId }: { held: readonly string[]; sceneId: number }) {
  const { t } = useTranslation('home');
  const { offers } = useSlots();
  const links = quickLinks(held, sceneId, ROUTES.filter((route) => offers.route(route.name)));
  return (
    <Panel title={t('links.title')} icon={<LayoutGridIcon />} className="jc-home-links">
      {links.length === 0 ? (
        <p className={Classes.TEXT_MUTED}>{t('links.empty')}</p>
      ) : (
        <ul className="jc-home-link-grid">
          {links.map((link) => (
            <li key={link.name}>
              <Link to={link.path} className="jc-home-link" data-testid="home-quick-link">
                <span className="jc-home-link-icon">
                  <Icon icon={namedIcon(link.icon)} size={18} />
                </span>
                <span className="jc-home-link-name">{t(`app:route.${link.name}`)}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}

function CurrentNotice() {
  const { t } = useTranslation('home');
  const notice = useNotice();
  let body: ReactNode;
  if (notice.isPending) body = <Spinner size={24} />;
  else if (notice.data) body = <RichText html={notice.data.noticeContent} className="jc-home-notice-text" />;
  else body = <NonIdealState icon={<InboxIcon />} description={t('notice.empty')} className="jc-home-notice-empty" />;
  return (
    <Panel title={t('notice.title')} icon={<NotificationsIcon />} className="jc-home-notice">
      <div data-testid="home-notice">{body}</div>
    </Panel>
  );
}
