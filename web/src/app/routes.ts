/**
 * Every route of the console (spec seed 001 section 2), as data: name, path, layout, whether it
 * needs a login, the permissions that open it (any one suffices) and its place in the menu.
 * Permission names are the server's (GET accountInfo, getScenePermissionList).
 */

export type LayoutName = 'main' | 'blank' | 'calibration' | 'mobileCalibration' | 'mobile' | 'globalMap';

export interface RouteDef {
  name: string;
  path: string;
  layout: LayoutName;
  /** Needs no login. */
  public?: boolean;
  /** Any one of these opens the route; none means any signed-in user. */
  permissions?: string[];
  /** Opens an outside site in a new window and keeps the current page. */
  external?: boolean;
  /** The page title reads as the calibration service name. */
  calibration?: boolean;
  /** Where the route shows in the menus (a route may show in both scenes). */
  menu?: MenuPlace[];
}

export interface MenuPlace {
  scene: 1 | 2;
  group: MenuGroup;
  icon: string;
}

export type MenuGroup =
  | 'top'
  | 'monitoring'
  | 'consumer'
  | 'operations'
  | 'product'
  | 'orders'
  | 'system'
  | 'dataCenter'
  | 'statistics'
  | 'marketing'
  | 'settlement'
  | 'cloudChain';

type Extra = Omit<RouteDef, 'name' | 'path' | 'layout'>;

const main = (name: string, path: string, permission: string | null, extra: Extra = {}): RouteDef => ({
  name,
  path,
  layout: 'main',
  ...(permission ? { permissions: [permission] } : {}),
  ...extra,
});
const menu = (scene: 1 | 2, group: MenuGroup, icon: string) => ({ menu: [{ scene, group, icon }] });
const open = (name: string, path: string, layout: LayoutName = 'blank', extra: Extra = {}): RouteDef => ({
  name,
  path,
  layout,
  public: true,
  ...extra,
});

export const ROUTES: RouteDef[] = [
  // --- no login: sign-in pages, pay pages, help, quick query, calibration, vip details, mall -----
  open('login', '/user/login'),
  open('recover', '/user/recover'),
  open('register', '/user/register'),
  open('loginResult', '/user/login-result'),
  open('bindPhone', '/user/bind-phone'),
  open('bindEmail', '/user/bind-email'),
  open('mobilePay', '/mobilePay/pay', 'mobile'),
  open('mobilePaySuccess', '/mobilePay/success', 'mobile'),
  open('paypalCallback', '/mobilePay/paypal/callback', 'mobile'),
  open('paypalCancel', '/mobilePay/paypal/cancel', 'mobile'),
  open('helpCenter', '/help/center'),
  open('helpDetail', '/help/detail'),
  open('mobileHelpList', '/mobile/help/list', 'mobile'),
  open('mobileHelpCenter', '/mobile/help/center', 'mobile'),
  open('pcQuickWaybill', '/pcQuick/waybill'),
  open('pcQuickWaybillDetail', '/pcQuick/waybill/detail/:waybillPk'),
  open('mobileQuickWaybill', '/mobileQuick/waybill', 'mobile'),
  open('mobileQuickWaybillDetail', '/mobileQuick/waybill/detail/:waybillPk', 'mobile'),
  open('mobileQuickQuery', '/mobileQuick/query', 'mobile'),
  open('mobileQuickQueryDetail', '/mobileQuick/query/detail', 'mobile'),
  open('calibrationHome', '/calibration', 'calibration', { calibration: true }),
  open('calibrationLogin', '/calibration/login', 'calibration', { calibration: true }),
  open('calibrationAdminLogin', '/calibration/admin/login', 'calibration', { calibration: true }),
  open('calibrationForm', '/calibration/form', 'calibration', { calibration: true }),
  open('calibrationFormExample', '/calibration/form/example', 'calibration', { calibration: true }),
  open('calibrationQuickly', '/calibration/quickly', 'calibration', { calibration: true }),
  open('calibrationPreview', '/calibration/preview', 'calibration', { calibration: true }),
  ...['home', 'quickly', 'device', 'device/example', 'serve', 'customer', 'customer/example', 'apply',
    'apply/success', 'apply/latter', 'pdf', 'preview', 'login'].map((page) =>
    open(`mobileCalibration.${page}`, `/mobile/calibration/${page}`, 'mobileCalibration', { calibration: true }),
  ),
  // A customer without an account finds the applications this browser made (their tokens are kept here).
  open('mobileCalibrationList', '/mobile/calibration/list', 'mobileCalibration', { calibration: true }),
  open('mobileCalibrationDetail', '/mobile/calibration/detail/:applicationId', 'mobileCalibration', { calibration: true }),
  open('vipBackups', '/vipDetails/backups'),
  open('vipAssets', '/vipDetails/assets'),
  open('vipLargeScreen', '/vipDetails/largeScreen'),
  open('mallOnlineCenter', '/elitechMall/center'),
  open('mallOnlineSolution', '/elitechMall/solution'),
  open('notFound', '/404'),
  open('forbidden', '/403'),
  open('serverError', '/500'),

  // --- signed in, other layouts -------------------------------------------------------------
  { name: 'calibrationOrders', path: '/:role/order/list', layout: 'calibration', calibration: true },
  { name: 'calibrationOrderDetail', path: '/:role/order/detail/:applicationId', layout: 'calibration',
    calibration: true },
  { name: 'calibrationQuickOrders', path: '/:role/order/quickly', layout: 'calibration', calibration: true },
  { name: 'quickQuery', path: '/quick/query', layout: 'blank' },
  { name: 'vipService', path: '/vip/service', layout: 'blank' },
  { name: 'paramHelp', path: '/paramHelp', layout: 'blank' },
  { name: 'versionManage', path: '/version/manage', layout: 'blank' },
  { name: 'receipt', path: '/receipt', layout: 'blank' },
  { name: 'conservationReport', path: '/conservation/report', layout: 'blank' },
  { name: 'marketVisualization', path: '/marketVisualization/home', layout: 'globalMap' },

  // --- main layout: the customer console -----------------------------------------------------
  main('home', '/home', 'home', menu(1, 'top', 'home')),
  main('homeOrganization', '/home/organization', 'home'),
  main('mallCenter', '/mall/center', 'mall', menu(1, 'top', 'shop')),
  main('mallSolution', '/mall/solution', 'mall'),
  main('projectList', '/projectList/index', 'cloudChain.myProject', {
    menu: [{ scene: 1, group: 'monitoring', icon: 'projects' }, { scene: 2, group: 'cloudChain', icon: 'projects' }],
  }),
  main('projectDetail', '/projectList/detail/:id', 'cloudChain.myProject'),
  main('projectOverview', '/projectOverview/index', 'cloudChain.projectOverview', menu(1, 'monitoring', 'dashboard')),
  main('operationIndex', '/operation/index', 'cloudChain.operation.index', menu(1, 'monitoring', 'wrench')),
  main('doorContact', '/OperateBoard/doorContact', 'operateBoard.report', menu(1, 'monitoring', 'log-in')),
  main('facingFreezer', '/facingIdentify/freezer', 'freezerIdentify.freezer', menu(1, 'monitoring', 'snowflake')),
  main('facingFreezerDetail', '/facingIdentify/freezer/detail/:fridgeId', 'freezerIdentify.freezer'),
  main('facingBrand', '/facingIdentify/brand', 'freezerIdentify.brand'),
  main('facingProduct', '/facingIdentify/product', 'freezerIdentify.product'),
  main('facingProductDetail', '/facingIdentify/product/detail/:id/:type', 'freezerIdentify.product'),
  main('facingProductAdd', '/facingIdentify/product/add', 'freezerIdentify.product'),
  main('facingPictures', '/facingIdentify/pictures', 'freezerIdentify.pictures'),
  main('facingPicturesFiles', '/facingIdentify/pictures/fileList/:id/:datasetId/:name/:scene', 'freezerIdentify.pictures'),
  main('facingPicturesDetail', '/facingIdentify/pictures/detail/:id/:datasetId/:name/:scene', 'freezerIdentify.pictures'),
  main('facingCollect', '/facingIdentify/freezerCollect', 'freezerIdentify.freezerCollect'),
  main('facingCollectDetail', '/facingIdentify/freezerCollect/detail/:id', 'freezerIdentify.freezerCollect'),
  main('facingPicturesList', '/facingIdentify/picturesList', 'freezerIdentify.picturesList'),
  main('storageVisualization', '/storageProject/visualization', 'storageProject.visualization',
    menu(1, 'monitoring', 'office')),
  main('storageMonitor', '/storageProject/monitor', 'storageProject.monitor'),
  main('storageEnergy', '/storageProject/energyConsumption', 'storageProject.energyConsumption'),
  main('storageOperation', '/storageProject/operation', 'storageProject.operation'),
  main('messageList', '/message/list', 'message.list', menu(1, 'monitoring', 'notifications')),
  main('deviceList', '/device/list', 'device.list', menu(1, 'monitoring', 'temperature')),
  main('storageList', '/device/list/storage', 'device.list', menu(1, 'monitoring', 'box')),
  main('freezerList', '/device/list/freezer', 'device.list', menu(1, 'monitoring', 'snowflake')),
  main('deviceDetail', '/device/detail/:deviceId', 'device.list'),
  main('storageDetail', '/storage/detail/:id/:deviceId', 'device.list'),
  main('storageDiagnosis', '/storage/Diagnosis/:deviceId', 'device.list'),
  main('storageConservation', '/storage/conservation/:id/:deviceId', 'device.list'),
  main('storageBill', '/storage/bill/:id/:type/:deviceId', 'device.list'),
  main('storageWaste', '/storage/waste/:id', 'device.list'),
  main('freezerDetail', '/freezer/detail/:id/:deviceId/:typeScenes', 'device.list'),
  main('freezerDetailIndividual', '/freezer/detailIndual/:id/:deviceId/:typeScenes', 'device.list'),
  main('cloudControlStorage', '/cloudControl/storage/detail/:id/:deviceId', 'device.list'),
  main('waybillList', '/waybill/list', 'waybill.list', menu(1, 'monitoring', 'truck')),
  main('waybillDetail', '/waybill/detail/:waybillPk', 'waybill.list'),
  main('geofence', '/waybill/geofence', 'waybill.geofence', menu(1, 'monitoring', 'map-marker')),
  main('assetList', '/asset/list', 'asset.list', menu(1, 'monitoring', 'cube')),
  main('assetDetail', '/asset/detail/:id', 'asset.list'),
  main('projectManage', '/project/list', 'project.list', menu(1, 'consumer', 'folder-open')),
  main('organizationList', '/organization/list', 'organization.list', menu(1, 'consumer', 'people')),
  main('fda', '/fda', 'fda', menu(1, 'consumer', 'endorsed')),
  main('consumerInfo', '/consumer/info', 'consumer.info', menu(1, 'consumer', 'user')),
  main('consumerWallet', '/consumer/wallet', 'consumer.wallet', menu(1, 'consumer', 'bank-account')),
  main('consumerList', '/consumer/list/:start?', 'consumer.list', menu(1, 'consumer', 'people')),
  main('consumerRole', '/consumer/role', 'consumer.role', menu(1, 'consumer', 'key')),
  main('consumerRecharge', '/consumer/recharge', 'consumer.recharge', menu(1, 'consumer', 'credit-card')),
  main('consumerDownload', '/consumer/download', 'consumer.download', menu(1, 'consumer', 'download')),
  main('consumerSharer', '/consumer/sharer', 'consumer.sharer', menu(1, 'consumer', 'share')),
  main('operationLog', '/operation/log', 'operation.log', menu(1, 'consumer', 'history')),
  main('activitiesList', '/activities/list', 'activities.list', menu(1, 'consumer', 'tag')),

  // --- main layout: the back office -----------------------------------------------------------
  ...([
    ['opSystemManage', '/operation/system/manage', 'operation.system.manage', 'cog'],
    ['opDeviceList', '/operation/device/list', 'operation.device.list', 'mobile-phone'],
    ['opLightBusiness', '/operation/lightBusiness', 'operation.lightBusiness', 'lightbulb'],
    ['opPlcList', '/operation/plc/list', 'operation.plc.list', 'data-connection'],
    ['opUpgrade', '/operation/upgrade', 'operation.upgrade', 'upload'],
    ['opGuidContent', '/operation/guid/content', 'operation.guid.content', 'barcode'],
    ['opGuidRecord', '/operation/guid/record', 'operation.guid.record', 'th-list'],
    ['opSimList', '/operation/sim/list', 'operation.sim.list', 'mobile-phone'],
    ['opAlarmList', '/operation/alarmlist', 'operation.alarmlist', 'warning-sign'],
    ['opPushRecord', '/operation/pushRecord', 'operation.pushRecord', 'send-message'],
    ['opDataPush', '/operation/datapush', 'operation.datapush', 'exchange'],
    ['opDataApi', '/operation/dataApi', 'operation.dataApi', 'code'],
    ['opApk', '/operation/system/apk', 'operation.system.apk', 'mobile-phone'],
    ['opIosUpgrade', '/operation/iosUpgrade', 'operation.iosUpgrade', 'mobile-phone'],
    ['opDtuLog', '/operation/dtuLog', 'operation.dtuLog', 'console'],
    ['opNetwork', '/operation/network', 'operation.network', 'globe-network'],
    ['opDevicePattern', '/operation/device/pattern', 'operation.device.pattern', 'layout-grid'],
  ] as const).map(([name, path, permission, icon]) => main(name, path, permission, menu(1, 'operations', icon))),
  ...([
    ['productType', '/product/type', 'product.type'],
    ['productParam', '/product/param', 'product.param'],
    ['productParamUnit', '/product/param/unit', 'product.paramUnit'],
    ['productSeries', '/product/series', 'product.series'],
    ['productAlarmRule', '/product/alarmRule', 'product.alarmRule'],
    ['productWarnRule', '/product/warnRule', 'product.warnRule'],
    ['productMessageTemplate', '/product/message/temlate', 'product.messageTemplate'],
    ['productVersion', '/product/version', 'product.version'],
  ] as const).map(([name, path, permission]) => main(name, path, permission, menu(1, 'product', 'box'))),
  ...([
    ['servicePackage', '/service/package/:id?', 'order.servicePackage'],
    ['rechargeOrders', '/operation/recharge', 'order.recharge'],
    ['offlineBuy', '/operation/offlinebuy', 'order.offlinebuy'],
    ['offlineExamine', '/operation/offlineExamine', 'order.offlineExamine'],
    ['rechargeStatistics', '/operation/rechargeStatistics', 'order.rechargeStatistics'],
    ['storageOrders', '/operation/storageOrders', 'order.storageOrders'],
  ] as const).map(([name, path, permission]) => main(name, path, permission, menu(1, 'orders', 'shopping-cart'))),
  ...([
    ['systemConsumers', '/operation/consumer/list', 'system.consumer'],
    ['systemRoles', '/operation/consumer/role', 'system.role'],
    ['systemExportDevice', '/operation/consumer/exportDevice', 'system.exportDevice'],
    ['customizedList', '/customized/list', 'customized.list'],
    ['noticeList', '/notice/list', 'notice.list'],
  ] as const).map(([name, path, permission]) => main(name, path, permission, {
    ...menu(1, 'system', 'settings'),
    // The system roles are read by whoever manages accounts too: an operator sees what a role grants before giving it.
    ...(name === 'systemRoles' ? { permissions: [permission, 'system.consumer:query'] } : {}),
  })),
  ...([
    ['scheduledBackup', '/service/scheduledBackup', 'dataCenter.scheduledBackup'],
    ['recorderData', '/service/recorderData', 'dataCenter.recorderData'],
    ['diseaseControl', '/diseaseControl/:province/:page', 'dataCenter.diseaseControl'],
    ['dataInterface', '/dataInterface/index', 'dataInterface.index'],
    ['dataApiIndex', '/dataApi/inedx', 'dataApi.list'],
    ['dataApiList', '/dataApi/list', 'dataApi.list'],
    ['parameterIndex', '/parameter/index', 'parameter.list'],
    ['parameterList', '/parameter/list', 'parameter.list'],
  ] as const).map(([name, path, permission]) =>
    main(name, path, permission, name === 'diseaseControl' || name === 'dataApiIndex' || name === 'parameterIndex'
      ? {} : menu(1, 'dataCenter', 'database'))),
  ...['user', 'electricity', 'chart', 'device', 'examine', 'diagnosis'].map((page) =>
    main(`eco.${page}`, `/ecoStatistics/${page}`, 'ecoStatistics', menu(1, 'statistics', 'lightning'))),
  ...['home', 'account', 'device', 'record', 'electricity', 'order', 'export'].map((page) =>
    main(`dataBoard.${page}`, `/dataBoard/${page}`, 'dataBoard', menu(1, 'statistics', 'chart'))),
  ...([
    ['videoPlatform', '/operation/video/platform', 'video.platform', 'video'],
    ['videoDevice', '/operation/video/device', 'video.device', 'mobile-video'],
    ['visualization2d', '/visualization/2d', 'visualization.2d', 'map'],
    ['visualizationLargeScreen', '/visualization/largeScreen', 'visualization.largeScreen', 'desktop'],
    ['carousel', '/marketing/carousel', 'marketing.carousel', 'media'],
    ['solutions', '/marketing/solution/list', 'marketing.solution', 'lightbulb'],
    ['userManualFaq', '/userManual/faq', 'userManual.faq', 'help'],
    ['experienceData', '/experience/data', 'experience.data', 'lab-test'],
    ['calibrationResults', '/resultList', 'calibration.resultList', 'clipboard'],
    ['revenue', '/revenue/index', 'revenue.index', 'dollar'],
    ['dealer', '/dealer/index', 'dealer.index', 'briefcase'],
  ] as const).map(([name, path, permission, icon]) => main(name, path, permission, menu(1, 'marketing', icon))),
  main('solutionOperate', '/marketing/solution/operate/:type/:id?', 'marketing.solution'),
  ...([
    ['settlementManage', '/cloudCustomized/mindex', 'cloudCustomized.mindex'],
    ['settlementCustomer', '/cloudCustomized/cindex', 'cloudCustomized.cindex'],
    ['settlementRecharge', '/cloudCustomized/recharge', 'cloudCustomized.recharge'],
    ['cloudCustomDevices', '/cloudCustom/deviceList', 'cloudCustom.deviceList'],
    ['cloudCustomDealers', '/cloudCustom/dealer', 'cloudCustom.dealer'],
    ['cloudCustomConsumers', '/cloudCustom/consumer', 'cloudCustom.consumer'],
    ['cloudCustomRoles', '/cloudCustom/role', 'cloudCustom.role'],
  ] as const).map(([name, path, permission]) => main(name, path, permission, menu(1, 'settlement', 'bank-account'))),
  // These three open an outside site in a new window (spec seed 000 section 2).
  main('plc', '/plc', 'operation.plc.list', { external: true, ...menu(1, 'operations', 'share') }),
  main('calibrationServe', '/calibrationServe', 'calibrationServe', { external: true, ...menu(1, 'marketing', 'share') }),
  main('marketManage', '/marketManage', 'marketManage', { external: true, ...menu(1, 'marketing', 'share') }),

  // --- scene 2: the cloud chain ----------------------------------------------------------------
  ...([
    ['cockpit', '/cockpit/index', 'cloudChain.cockpit', 'dashboard'],
    ['realtimeData', '/dataMonitor/realtimedata', 'cloudChain.dataMonitor.realtime', 'pulse'],
    ['historyCurve', '/dataMonitor/HistoryCurve', 'cloudChain.dataMonitor.history', 'timeline-line-chart'],
    ['realtimeAlarms', '/alarmMonitor/realtimedata', 'cloudChain.alarmMonitor.realtime', 'warning-sign'],
    ['historyAlarms', '/alarmMonitor/historyAlarm', 'cloudChain.alarmMonitor.history', 'history'],
    ['alarmPushRecord', '/alarmMonitor/pushRecord', 'cloudChain.alarmMonitor.pushRecord', 'send-message'],
    ['videoMonitor', '/videoMonitor/index', 'cloudChain.videoMonitor', 'video'],
    ['remoteControl', '/remoteControl/index', 'cloudChain.remoteControl', 'antenna'],
    ['businessModel', '/businessModel/index', 'cloudChain.businessModel', 'diagram-tree'],
    ['energyManagement', '/energyManagement/index', 'cloudChain.energyManagement', 'lightning'],
  ] as const).map(([name, path, permission, icon]) => main(name, path, permission, menu(2, 'cloudChain', icon))),
];

export const ROUTE_BY_NAME: ReadonlyMap<string, RouteDef> = new Map(ROUTES.map((r) => [r.name, r]));

export const LOGIN_PATHS = {
  user: '/user/login',
  calibration: '/calibration/login',
  calibrationAdmin: '/calibration/admin/login',
  mobileCalibration: '/mobile/calibration/login',
} as const;

/** The style model of white-label platforms that restricts the menu (spec seed 000 section 4). */
export const JUNJIA = 'junjia';

/** Where `/` leads: the device list on a `junjia` platform, else home. */
export function landingPath(styleModel: string | null | undefined): string {
  return styleModel === JUNJIA ? '/device/list' : '/home';
}
