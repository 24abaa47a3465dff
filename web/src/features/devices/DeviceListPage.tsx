import {
  AnchorButton,
  Button,
  Card,
  Checkbox,
  Classes,
  HTMLSelect,
  HTMLTable,
  NonIdealState,
  Spinner,
  Tab,
  Tabs,
  Tag,
  ButtonGroup,
} from '@blueprintjs/core';
import { AddIcon, ArchiveIcon, CreditCardIcon, ErrorIcon, FolderCloseIcon, FolderSharedIcon, GridViewIcon, ImportIcon, ListIcon, MapIcon, OfficeIcon, RefreshIcon, SearchIcon, ShareIcon, SwapHorizontalIcon, TrashIcon } from '@blueprintjs/icons';
import { useState, type JSX, type MouseEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { findRoute } from '@/app/guard';
import { NameSearch } from '@/components/NameSearch';
import { PagerFooter } from '@/components/PagerFooter';
import { usePermissions } from '@/lib/permissions';
import { useRechargeFlow } from '@/hooks/useRechargeFlow';
import { useSlots } from '@/lib/slots';
import { mayChange } from '@/lib/access';
import { useDevicePage, useSceneTotals, type Device, type Scene } from '@/lib/api/devices';
import { ServiceExpiry, StateTag } from '@/components/DeviceTags';
import { ReadOnlyReason, ReadOnlyTag, SharedTag } from '@/components/ReadOnly';
import {
  CALIBRATION_FILTERS,
  deviceQuery,
  detailHref,
  listExportFilters,
  LIST_MODES,
  type ListMode,
  pathOfScene,
  readFilters,
  rechargeHref,
  SCENE_TABS,
  sceneOfRoute,
  SERVICE_FILTERS,
  STATUS_FILTERS,
  writeFilters,
  type ListFilters,
} from '@/lib/deviceListQuery';
import { formatInstant, formatValue } from '@/lib/units';
import { deviceState } from '@/lib/deviceValues';
import { AddDeviceDialog } from './components/AddDeviceDialog';
import { BatchAddDialog } from './components/BatchAddDialog';
import { BrokerLoginDialog } from './components/BrokerLoginDialog';
import { DeleteDevicesDialog, type DeviceToDelete } from './components/DeleteDevicesDialog';
import { DeviceBoard } from './components/DeviceBoard';
import { DeviceMapMode } from './components/DeviceMapMode';
import { ScrapDevicesDialog } from './detail/ScrapDevicesDialog';
import { ExportListButton } from './components/ExportDialog';
import { MoveToOrganizationDialog } from './components/MoveToOrganizationDialog';
import { MoveToProjectDialog } from './components/MoveToProjectDialog';
import { ShareDevicesDialog } from './components/ShareDevicesDialog';
import { TransferDevicesDialog } from './components/TransferDevicesDialog';
import { useManagedOrganizations } from '@/lib/api/myOrganizations';
import { SHARING_LIMITS } from '@/lib/api/sharing';
import { ProjectFilter } from './components/ProjectFilter';
import { ORGANIZATION_MOVE_MAX, type DeviceAdded } from './api/manage';
import './devices.css';

/**
 * The device list of one tab (cold-chain monitoring, smart cold storage or smart freezers), as a
 * table, a map or a board of cards: the mode is part of the address, like the filters.
 */
export default function DeviceListPage() {
  const { t } = useTranslation('devices');
  const location = useLocation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const scene = sceneOfRoute(findRoute(location.pathname)?.name);
  const filters = readFilters(params);
  const query = useDevicePage(deviceQuery(scene, filters));
  const page = query.data;
  const others = SCENE_TABS.filter((tab) => tab.scene !== scene).map((tab) => tab.scene);
  const otherTotals = useSceneTotals(deviceQuery(scene, filters), others);
  const recharge = useRechargeFlow();
  const held = usePermissions();
  const [adding, setAdding] = useState(false);
  const [batchAdding, setBatchAdding] = useState(false);
  const [added, setAdded] = useState<DeviceAdded | null>(null);
  // Selected devices by id (kept across pages), and those a confirmation is asked for.
  const [selected, setSelected] = useState<ReadonlyMap<number, SelectedDevice>>(new Map());
  const [deleting, setDeleting] = useState<readonly DeviceToDelete[]>([]);
  const [scrapping, setScrapping] = useState<readonly DeviceToDelete[]>([]);
  const [moving, setMoving] = useState<readonly DeviceToDelete[]>([]);
  const [joining, setJoining] = useState<readonly DeviceToDelete[]>([]);
  const [sharing, setSharing] = useState<readonly DeviceToDelete[]>([]);
  const [transferring, setTransferring] = useState<readonly DeviceToDelete[]>([]);
  const toggle = (device: SelectedDevice, on: boolean) =>
    setSelected((current) => {
      const next = new Map(current);
      if (on) next.set(device.deviceId, device);
      else next.delete(device.deviceId);
      return next;
    });
  const canRecharge = held.has('consumer.recharge');
  const canMove = held.has('project.list:edit');
  // Sharing reads the caller's templates (consumer.sharer) and changes the devices (device.list:edit).
  const canShare = held.has('device.list:edit') && held.has('consumer.sharer');
  const canTransfer = held.has('device.list:edit');
  // Into (or out of) an organization: only for whoever changes the devices of one it belongs to.
  const managed = useManagedOrganizations(held.has('organization.list') && canTransfer);
  const canJoin = canTransfer && managed.length > 0;
  // A selection serves every batch action: recharge and move take those the caller may change; delete, scrap, share
  // and transfer those it owns (an organization's administrator changes its devices but does not give them away).
  const chosen = [...selected.values()];
  const movable = chosen.filter((device) => device.changeable).map(({ deviceId, deviceName }) => ({ deviceId, deviceName }));
  const rechargeable = chosen.filter((device) => device.writable).map((device) => device.deviceId);
  const deletable: DeviceToDelete[] = chosen
    .filter((device) => device.owned)
    .map(({ deviceId, deviceName }) => ({ deviceId, deviceName }));
  const totalOf = (tabScene: Scene): number | undefined =>
    tabScene === scene ? page?.totalCount : otherTotals[others.indexOf(tabScene)]?.data;

  const go = (next: ListFilters, path = location.pathname) => {
    const search = writeFilters(next).toString();
    navigate(search ? `${path}?${search}` : path);
  };
  // Any new filter starts again on page 1.
  const refine = (change: Partial<ListFilters>) => go({ ...filters, start: 1, ...change });

  return (
    <div className="jc-devices" data-testid="device-list-page">
      <Card className="jc-devices-card" elevation={0}>
        <Tabs
          id="jc-device-scenes"
          className="jc-devices-tabs"
          selectedTabId={scene}
          onChange={(id) => go({ ...filters, start: 1 }, pathOfScene(Number(id) as Scene))}
          size="large"
        >
          {SCENE_TABS.map((tab) => {
            const total = totalOf(tab.scene);
            return (
              <Tab
                key={tab.scene}
                id={tab.scene}
                title={t(`scene.${tab.scene}`)}
                tagContent={total}
                tagProps={{ round: true, minimal: true, intent: tab.scene === scene ? 'primary' : 'none' }}
                data-testid={`device-scene-${tab.scene}`}
              />
            );
          })}
        </Tabs>
        <Toolbar filters={filters} onRefine={refine} onRefresh={() => void query.refetch()} refreshing={query.isFetching}>
          <ModeSwitch mode={filters.mode} onChoose={(mode) => go({ ...filters, mode, start: 1 })} />
          {canRecharge && rechargeable.length > 0 && (
            <Link
              to={rechargeHref(rechargeable)}
              onClick={recharge.openOnClick(rechargeable)}
              className={`${Classes.BUTTON} ${Classes.OUTLINED} ${Classes.INTENT_PRIMARY}`}
              data-testid="device-recharge-selected"
            >
              <CreditCardIcon />
              <span className={Classes.BUTTON_TEXT}>{t('list.rechargeSelected', { count: rechargeable.length })}</span>
            </Link>
          )}
          {canMove && movable.length > 0 && (
            <Button icon={<FolderSharedIcon />} variant="outlined" intent="primary" text={t('project.selected', { count: movable.length })} onClick={() => setMoving(movable)} data-testid="device-move-selected" />
          )}
          {canJoin && movable.length > 0 && (
            <Button icon={<OfficeIcon />} variant="outlined" intent="primary" text={t('organization.selected', { count: movable.length })}
              onClick={() => setJoining(movable.slice(0, ORGANIZATION_MOVE_MAX))} data-testid="device-organization-selected" />
          )}
          {canShare && deletable.length > 0 && (
            <Button icon={<ShareIcon />} variant="outlined" intent="primary" text={t('sharing.selected', { count: deletable.length })}
              onClick={() => setSharing(deletable.slice(0, SHARING_LIMITS.devices))} data-testid="device-share-selected" />
          )}
          {canTransfer && deletable.length > 0 && (
            <Button icon={<SwapHorizontalIcon />} variant="outlined" intent="warning" text={t('transfer.selected', { count: deletable.length })}
              onClick={() => setTransferring(deletable.slice(0, SHARING_LIMITS.devices))} data-testid="device-transfer-selected" />
          )}
          {held.has('device.list:delete') && deletable.length > 0 && (
            <Button icon={<TrashIcon />} intent="danger" variant="outlined" text={t('delete.selected', { count: deletable.length })} onClick={() => setDeleting(deletable)} data-testid="device-delete-selected" />
          )}
          {held.has('device.list:edit') && deletable.length > 0 && (
            <Button icon={<ArchiveIcon />} intent="warning" variant="outlined" text={t('scrap.selected', { count: deletable.length })} onClick={() => setScrapping(deletable)} data-testid="device-scrap-selected" />
          )}
          <ExportListButton filters={listExportFilters(scene, filters)} />
          {held.has('device.list:import') && (
            <Button icon={<ImportIcon />} variant="outlined" intent="primary" text={t('batch.open')} onClick={() => setBatchAdding(true)} data-testid="device-batch-add" />
          )}
          {held.has('device.list:add') && (
            <Button icon={<AddIcon />} intent="primary" text={t('add.open')} onClick={() => setAdding(true)} data-testid="device-add" />
          )}
        </Toolbar>
        <div className="jc-devices-table-wrap" aria-busy={query.isFetching}>
          {page === undefined ? (
            query.isError ? (
              <NonIdealState
                icon={<ErrorIcon />}
                title={t('list.loadFailed')}
                action={<Button icon={<RefreshIcon />} text={t('list.retry')} onClick={() => void query.refetch()} />}
                className="jc-devices-empty"
              />
            ) : (
              <Spinner size={32} className="jc-devices-loading" />
            )
          ) : page.data.length === 0 ? (
            <div data-testid="device-list-empty">
              <NonIdealState icon={<SearchIcon />} title={t('list.empty')} description={t('list.emptyHint')} className="jc-devices-empty" />
            </div>
          ) : filters.mode === 'map' ? (
            <DeviceMapMode filters={listExportFilters(scene, filters)} total={page.totalCount} canOpen={held.has('device.detail')} />
          ) : filters.mode === 'board' ? (
            <DeviceBoard devices={page.data} canOpen={held.has('device.detail')} stale={query.isPlaceholderData} />
          ) : (
            <DeviceTable
              devices={page.data}
              stale={query.isPlaceholderData}
              onRecharge={recharge.openOnClick}
              selected={selected}
              onSelect={held.has('device.list:delete') || canRecharge || canMove || canShare || canTransfer ? toggle : undefined}
              onDelete={held.has('device.list:delete') ? (device) => setDeleting([device]) : undefined}
            />
          )}
        </div>
        {page !== undefined && page.totalCount > 0 && filters.mode !== 'map' && (
          <PagerFooter
            page={filters.start}
            pageSize={filters.pageSize}
            total={page.totalCount}
            disabled={query.isFetching}
            onChange={(start) => go({ ...filters, start })}
            onPageSizeChange={(pageSize) => refine({ pageSize })}
          />
        )}
      </Card>
      {recharge.drawer}
      <AddDeviceDialog
        isOpen={adding}
        onClose={() => setAdding(false)}
        onAdded={(result) => {
          setAdding(false);
          setAdded(result);
        }}
      />
      <BatchAddDialog isOpen={batchAdding} onClose={() => setBatchAdding(false)} />
      <BrokerLoginDialog login={added?.credentials ?? null} deviceName={added?.device.deviceName ?? ''} onClose={() => setAdded(null)} />
      <DeleteDevicesDialog devices={deleting} onClose={() => setDeleting([])} onDeleted={() => setSelected(new Map())} />
      <ScrapDevicesDialog devices={scrapping} onClose={() => setScrapping([])} onScrapped={() => setSelected(new Map())} />
      <MoveToProjectDialog devices={moving} onClose={() => setMoving([])} onMoved={() => setSelected(new Map())} />
      <MoveToOrganizationDialog devices={joining} organizations={managed} onClose={() => setJoining([])} onMoved={() => setSelected(new Map())} />
      <ShareDevicesDialog devices={sharing} onClose={() => setSharing([])} onShared={() => setSelected(new Map())} />
      <TransferDevicesDialog devices={transferring} onClose={() => setTransferring([])} onTransferred={() => setSelected(new Map())} />
    </div>
  );
}

/** A device ticked in the list, with what the caller may do with it. */
interface SelectedDevice extends DeviceToDelete {
  owned: boolean;
  /** May be recharged by the caller. */
  writable: boolean;
  /** May be changed by the caller (moved into a project). */
  changeable: boolean;
}

const MODE_ICONS: Readonly<Record<ListMode, JSX.Element>> = { list: <ListIcon />, map: <MapIcon />, board: <GridViewIcon /> };

function ModeSwitch({ mode, onChoose }: { mode: ListMode; onChoose: (mode: ListMode) => void }) {
  const { t } = useTranslation('devices');
  return (
    <ButtonGroup variant="outlined" aria-label={t('mode.label')} className="jc-devices-modes">
      {LIST_MODES.map((key) => (
        <Button
          key={key}
          icon={MODE_ICONS[key]}
          text={t(`mode.${key}`)}
          active={mode === key}
          aria-pressed={mode === key}
          intent={mode === key ? 'primary' : 'none'}
          onClick={() => onChoose(key)}
          data-testid={`device-mode-${key}`}
        />
      ))}
    </ButtonGroup>
  );
}

interface ToolbarProps {
  /** The list's actions (add, delete selected), at the toolbar's end. */
  children?: ReactNode;
  filters: ListFilters;
  onRefine: (change: Partial<ListFilters>) => void;
  onRefresh: () => void;
  refreshing: boolean;
}

function Toolbar({ children, filters, onRefine, onRefresh, refreshing }: ToolbarProps) {
  const { t } = useTranslation('devices');
  return (
    <div className="jc-devices-toolbar">
      <NameSearch
        value={filters.deviceName}
        onSearch={(deviceName) => onRefine({ deviceName })}
        placeholder={t('list.searchPlaceholder')}
        searchText={t('list.search')}
        clearLabel={t('list.clear')}
        testId="device-search"
      />
      <HTMLSelect
        aria-label={t('list.status')}
        data-testid="device-status-filter"
        value={filters.status}
        onChange={(event) => onRefine({ status: event.currentTarget.value as ListFilters['status'] })}
        options={STATUS_FILTERS.map((value) => ({ value, label: t(`list.statusFilter.${value}`) }))}
      />
      <HTMLSelect
        aria-label={t('list.service')}
        data-testid="device-service-filter"
        value={filters.service}
        onChange={(event) => onRefine({ service: event.currentTarget.value as ListFilters['service'] })}
        options={SERVICE_FILTERS.map((value) => ({ value, label: t(`list.serviceFilter.${value}`) }))}
      />
      <HTMLSelect
        aria-label={t('list.calibration')}
        data-testid="device-calibration-filter"
        value={filters.calibration}
        onChange={(event) => onRefine({ calibration: event.currentTarget.value as ListFilters['calibration'] })}
        options={CALIBRATION_FILTERS.map((value) => ({ value, label: t(`list.calibrationFilter.${value}`) }))}
      />
      <ProjectFilter value={filters.project} onChange={(project) => onRefine({ project })} />
      <span className="jc-devices-toolbar-spacer" />
      <Button icon={<RefreshIcon />} variant="minimal" text={t('list.refresh')} loading={refreshing} onClick={onRefresh} />
      {children}
    </div>
  );
}

interface DeviceTableProps {
  devices: readonly Device[];
  stale: boolean;
  /** The click handler of a device's Recharge link (opens the recharge drawer). */
  onRecharge: (deviceIds: readonly number[]) => (event: MouseEvent) => void;
  selected: ReadonlyMap<number, SelectedDevice>;
  /** Selects a device for a batch recharge or delete; absent: no selection column. */
  onSelect?: (device: SelectedDevice, on: boolean) => void;
  /** Asks to delete one device; absent: no delete action. */
  onDelete?: (device: DeviceToDelete) => void;
}

function DeviceTable({ devices, stale, onRecharge, selected, onSelect, onDelete }: DeviceTableProps) {
  const { t } = useTranslation('devices');
  const held = usePermissions();
  const canOpen = held.has('device.detail');
  const canRecharge = held.has('consumer.recharge');
  return (
    <HTMLTable compact striped className={stale ? 'jc-devices-table jc-stale' : 'jc-devices-table'} data-testid="device-table">
      <thead>
        <tr>
          {onSelect && (
            <th scope="col" className="jc-devices-select" aria-label={t('delete.select')} />
          )}
          <th scope="col">{t('list.column.name')}</th>
          <th scope="col">{t('list.column.type')}</th>
          <th scope="col">{t('list.column.state')}</th>
          <th scope="col">{t('list.column.reading')}</th>
          <th scope="col">{t('list.column.level')}</th>
          <th scope="col">{t('list.column.expiry')}</th>
          <th scope="col" className="jc-devices-actions">
            {t('list.column.actions')}
          </th>
        </tr>
      </thead>
      <tbody>
        {devices.map((device) => (
          <DeviceRow
            key={device.deviceId}
            device={device}
            canOpen={canOpen}
            canRecharge={canRecharge}
            onRecharge={onRecharge}
            selected={selected.has(device.deviceId)}
            onSelect={onSelect}
            onDelete={onDelete}
            canMove={held.has('project.list:edit')}
            canGive={held.has('device.list:edit')}
          />
        ))}
      </tbody>
    </HTMLTable>
  );
}

interface DeviceRowProps extends Pick<DeviceTableProps, 'onRecharge' | 'onSelect' | 'onDelete'> {
  selected: boolean;
  device: Device;
  /** The account may open a device's detail page. */
  canOpen: boolean;
  /** The account may recharge (the device itself may still be read-only for the caller). */
  canRecharge: boolean;
  /** The account may move devices into its projects. */
  canMove: boolean;
  /** The account may share or transfer the devices it owns. */
  canGive: boolean;
}

function DeviceRow({ device, canOpen, canRecharge, canMove, canGive, onRecharge, selected, onSelect, onDelete }: DeviceRowProps) {
  const { t } = useTranslation('devices');
  const { AutoRenewTag } = useSlots();
  const writable = mayChange(device);
  // Only its owner deletes a device.
  const deletable = device.isOwner;
  const named = { deviceId: device.deviceId, deviceName: device.deviceName };
  // A scrapped device is recharged only once its owner restores it (the server refuses it too).
  const rechargeable = writable && !device.scrappedAt;
  // Selectable for whichever batch action the caller may take on it.
  const selectable = (deletable && onDelete !== undefined) || (rechargeable && canRecharge) || (writable && canMove) ||
    (deletable && canGive);
  return (
    <tr data-testid="device-row" data-device-name={device.deviceName} data-access={device.access}>
      {onSelect && (
        <td className="jc-devices-select">
          <Checkbox
            checked={selected}
            disabled={!selectable}
            aria-label={t('delete.selectOne', { name: device.deviceName })}
            onChange={(event) => onSelect({ ...named, owned: deletable, writable: rechargeable, changeable: writable }, event.currentTarget.checked)}
            data-testid="device-select"
          />
        </td>
      )}
      <td>
        <div className="jc-devices-name-line">
          {canOpen ? (
            <Link to={detailHref(device.deviceId)} className="jc-devices-name" data-testid="device-link">
              {device.deviceName}
            </Link>
          ) : (
            <span className="jc-devices-name">{device.deviceName}</span>
          )}
          {device.sharedWithMe ? <SharedTag ownerName={device.ownerName} /> : !writable && <ReadOnlyTag />}
        </div>
        <div className={`jc-mono ${Classes.TEXT_MUTED}`}>{device.deviceGuid}</div>
        {device.organizationName && (
          <Tag minimal icon={<OfficeIcon />} className="jc-devices-project" data-testid="device-organization">
            {device.organizationName}
          </Tag>
        )}
        {device.projectName && (
          <Tag minimal icon={<FolderCloseIcon />} className="jc-devices-project" data-testid="device-project">
            {device.projectName}
          </Tag>
        )}
      </td>
      <td>{device.deviceTypeName}</td>
      <td>
        <StateTag device={device} />
      </td>
      <td>
        <ReadingCell device={device} />
      </td>
      <td>
        <div className="jc-devices-level">
          {device.levelName ?? <span className={Classes.TEXT_MUTED}>—</span>}
          {device.agreementStatus > 0 && (
            <AutoRenewTag device={{ deviceId: device.deviceId, deviceName: device.deviceName }} readOnly={!writable} />
          )}
        </div>
      </td>
      <td>
        <ServiceExpiry device={device} />
      </td>
      <td className="jc-devices-actions">
        {canOpen && (
          <Link to={detailHref(device.deviceId)} className={`${Classes.BUTTON} ${Classes.MINIMAL} ${Classes.SMALL}`}>
            <span className={Classes.BUTTON_TEXT}>{t('list.detail')}</span>
          </Link>
        )}
        {canRecharge &&
          (rechargeable ? (
            <Link
              to={rechargeHref([device.deviceId])}
              onClick={onRecharge([device.deviceId])}
              className={`${Classes.BUTTON} ${Classes.MINIMAL} ${Classes.SMALL} ${Classes.INTENT_PRIMARY}`}
              data-testid="device-recharge"
            >
              <span className={Classes.BUTTON_TEXT}>{t('list.recharge')}</span>
            </Link>
          ) : device.scrappedAt ? (
            <span title={t('list.scrappedNoRecharge')}>
              <AnchorButton variant="minimal" size="small" disabled text={t('list.recharge')} data-testid="device-recharge" />
            </span>
          ) : (
            <ReadOnlyReason device={device}>
              <AnchorButton variant="minimal" size="small" disabled text={t('list.recharge')} data-testid="device-recharge" />
            </ReadOnlyReason>
          ))}
        {onDelete && deletable && (
          <Button variant="minimal" size="small" intent="danger" text={t('delete.one')} onClick={() => onDelete(named)} data-testid="device-delete" />
        )}
      </td>
    </tr>
  );
}

function ReadingCell({ device }: { device: Device }) {
  const { i18n } = useTranslation('devices');
  if (device.lastReadingAt === null) return <span className={Classes.TEXT_MUTED}>—</span>;
  const alarming = deviceState(device) === 'alarm';
  const { temperatureUnit: unit, displayPrecision: precision } = device;
  return (
    <div className="jc-devices-reading">
      <span className={alarming ? 'jc-devices-values is-alarm' : 'jc-devices-values'}>
        {device.temperature !== null && <span>{formatValue('t', device.temperature, unit, precision)}</span>}
        {device.humidity !== null && <span>{formatValue('h', device.humidity, unit, precision)}</span>}
      </span>
      <time className={Classes.TEXT_MUTED} dateTime={device.lastReadingAt}>
        {formatInstant(device.lastReadingAt, i18n.language, false)}
      </time>
    </div>
  );
}
