/**
 * The Blueprint icons that data picks by name (menu places in app/routes.ts, the home page's tiles
 * and quick links), each imported on its own. Given a bare name, Blueprint would fetch the paths of
 * all of its icons (~600 kB, see blueprintIconsByNameOff in vite.config.ts); components write
 * `icon={<AddIcon />}` directly, and only names held as data go through this table.
 */
import {
  AntennaIcon, ApplicationIcon, ArchiveIcon, BanCircleIcon, BankAccountIcon, BarcodeIcon, BoxIcon, BriefcaseIcon,
  ChartIcon, ClipboardIcon, CloudIcon, CodeIcon, CogIcon, ConsoleIcon, CreditCardIcon, CubeIcon,
  DashboardIcon, DatabaseIcon, DataConnectionIcon, DesktopIcon, DiagramTreeIcon, DisableIcon, DollarIcon,
  DotIcon, DownloadIcon, EndorsedIcon, ExchangeIcon, FeedIcon, FolderOpenIcon, GlobeNetworkIcon, HelpIcon,
  HistoryIcon, HomeIcon, KeyIcon, LabTestIcon, LayersIcon, LayoutGridIcon, LightbulbIcon, LightningIcon,
  LogInIcon, MapIcon, MapMarkerIcon, MediaIcon, MobilePhoneIcon, MobileVideoIcon, NotificationsIcon,
  OfficeIcon, OfflineIcon, PeopleIcon, ProjectsIcon, PulseIcon, SendMessageIcon, SettingsIcon, ShareIcon,
  ShopIcon, ShoppingCartIcon, SnowflakeIcon, TagIcon, TemperatureIcon, ThListIcon, TimeIcon,
  TimelineLineChartIcon, TruckIcon, UploadIcon, UserIcon, VideoIcon, WarningSignIcon, WrenchIcon,
} from '@blueprintjs/icons';
import { createElement, type JSX } from 'react';

export const NAMED_ICONS = {
  antenna: AntennaIcon,
  application: ApplicationIcon,
  archive: ArchiveIcon,
  'ban-circle': BanCircleIcon,
  'bank-account': BankAccountIcon,
  barcode: BarcodeIcon,
  box: BoxIcon,
  briefcase: BriefcaseIcon,
  chart: ChartIcon,
  clipboard: ClipboardIcon,
  cloud: CloudIcon,
  code: CodeIcon,
  cog: CogIcon,
  console: ConsoleIcon,
  'credit-card': CreditCardIcon,
  cube: CubeIcon,
  dashboard: DashboardIcon,
  'data-connection': DataConnectionIcon,
  database: DatabaseIcon,
  desktop: DesktopIcon,
  'diagram-tree': DiagramTreeIcon,
  disable: DisableIcon,
  dollar: DollarIcon,
  dot: DotIcon,
  download: DownloadIcon,
  endorsed: EndorsedIcon,
  exchange: ExchangeIcon,
  feed: FeedIcon,
  'folder-open': FolderOpenIcon,
  'globe-network': GlobeNetworkIcon,
  help: HelpIcon,
  history: HistoryIcon,
  home: HomeIcon,
  key: KeyIcon,
  'lab-test': LabTestIcon,
  layers: LayersIcon,
  'layout-grid': LayoutGridIcon,
  lightbulb: LightbulbIcon,
  lightning: LightningIcon,
  'log-in': LogInIcon,
  map: MapIcon,
  'map-marker': MapMarkerIcon,
  media: MediaIcon,
  'mobile-phone': MobilePhoneIcon,
  'mobile-video': MobileVideoIcon,
  notifications: NotificationsIcon,
  office: OfficeIcon,
  offline: OfflineIcon,
  people: PeopleIcon,
  projects: ProjectsIcon,
  pulse: PulseIcon,
  'send-message': SendMessageIcon,
  settings: SettingsIcon,
  share: ShareIcon,
  shop: ShopIcon,
  'shopping-cart': ShoppingCartIcon,
  snowflake: SnowflakeIcon,
  tag: TagIcon,
  temperature: TemperatureIcon,
  'th-list': ThListIcon,
  time: TimeIcon,
  'timeline-line-chart': TimelineLineChartIcon,
  truck: TruckIcon,
  upload: UploadIcon,
  user: UserIcon,
  video: VideoIcon,
  'warning-sign': WarningSignIcon,
  wrench: WrenchIcon,
} as const;

export type IconName = keyof typeof NAMED_ICONS;

export function isIconName(name: string): name is IconName {
  return Object.hasOwn(NAMED_ICONS, name);
}

/** The icon element for a name of the table. */
export function namedIcon(name: IconName): JSX.Element {
  return createElement(NAMED_ICONS[name]);
}
