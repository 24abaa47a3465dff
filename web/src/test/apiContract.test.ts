/**
 * The client's zod schemas cannot drift from the server: each answer a fetcher parses is compared,
 * field by field and both ways, with what the server's OpenAPI document says that path answers
 * (`coldchain openapi`, the document GET /api/openapi.json serves). A second test finds every call
 * in the sources, so a new fetcher cannot go unchecked.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { channelChoiceSchema, photoSchema } from '@/features/account/api/account';
import { changedAccountSchema, contractorAgreementSchema } from '@/features/account/api/accountType';
import { dictItemSchema } from '@/lib/api/profile';
import { alarmRulePageSchema, alarmRuleSchema, pushSettingSchema } from '@/features/devices/api/alarmRules';
import {
  deviceEventPageSchema,
  maintenancePageSchema,
  maintenanceSchema,
  paramsStateSchema,
} from '@/features/devices/api/detailTabs';
import { historySchema } from '@/features/devices/api/history';
import { deviceCalibrationSchema } from '@/features/devices/api/calibration';
import {
  batchDeletedSchema,
  brokerLoginSchema,
  connectionSchema,
  dataClearedSchema,
  deviceAddedSchema,
  deviceTypeSchema,
  organizationChangedSchema,
  restoredSchema,
  scrappedSchema,
  sheetReportSchema,
} from '@/features/devices/api/manage';
import { homeCountsSchema } from '@/features/home/api/homeCounts';
import {
  activityOrderPageSchema,
  activityPageSchema,
  activitySchema,
  alertPackageAdminSchema,
  alertDepositViewSchema,
  depositPageSchema,
  serviceDepositViewSchema,
  importReportSchema,
  optionLabelSchema,
  targetAccountSchema,
} from '@/features/promotions/api/promotions';
import {
  accountRoleSchema,
  addedUserSchema,
  managedUserSchema,
  newPasswordSchema,
  systemRoleSchema,
  userPageSchema,
} from '@/features/useradmin/api/users';
import { operatorHomeCountsSchema } from '@/features/home/api/operatorHomeCounts';
import {
  cardBatchPageSchema,
  cardBatchSchema,
  cardPageSchema,
  couponBatchPageSchema,
  couponBatchSchema,
  couponPageSchema,
  couponQuoteSchema,
  redeemedSchema,
  referencesSchema,
} from '@/features/vouchers/api/vouchers';
import { homeTilesSchema } from '@/features/home/api/homeTiles';
import { energySchema, trackSchema } from '@/features/devices/api/whereabouts';
import { registeredSchema } from '@/features/auth/api/register';
import { optionPageSchema } from '@/features/messages/api/deviceOptions';
import {
  readResultSchema,
  systemMessagePageSchema,
  systemMessageSchema,
  unreadCountSchema,
} from '@/features/messages/api/systemMessages';
import { alertPackagesSchema, countryCodeSchema } from '@/features/recharge/api/alerts';
import { billSchema } from '@/features/recharge/api/bills';
// calibration lab (issue 21)
import {
  certificateSchema,
  labApplicationPageSchema,
  labApplicationSchema,
  priceSetSchema,
} from '@/lib/api/calibrationLab';
import { invoiceableOrderSchema, myInvoicePageSchema } from '@/features/recharge/api/invoices';
import { invoiceSchema } from '@/lib/api/invoices';
import {
  depositInfoSchema,
  deviceQuoteSchema,
  levelSchema,
  serviceItemSchema,
  yearOptionListSchema,
} from '@/features/recharge/api/levels';
import { myOrderPageSchema, orderDetailSchema, resumedPaymentSchema } from '@/features/recharge/api/myOrders';
import { orderPlacedSchema, orderStatusSchema, payStatusSchema } from '@/features/recharge/api/orders';
import { currentServiceSchema } from '@/features/recharge/api/service';
import { accountInfoSchema } from '@/lib/api/accountInfo';
import { alarmPageSchema, alarmSchema, deferralPageSchema, untreatedCountSchema } from '@/lib/api/alarms';
import { customPageSchema } from '@/lib/api/customPage';
import { deviceDetailSchema, deviceMarkersSchema, devicePageSchema } from '@/lib/api/devices';
import { expiredInfoSchema, expiredPageSchema } from '@/lib/api/expired';
import { exportPageSchema, exportSchema, readyCountSchema } from '@/lib/api/exports';
import { runPageSchema, schedulePageSchema, scheduleSchema } from '@/features/reports/api/reports';
import { invitationSchema, membersSchema, myOrganizationSchema } from '@/features/organizations/api/organizations';
import { organizationRoleSchema, permissionRouteSchema } from '@/features/organizations/api/roles';
import { deskOrderSchema, deskPageSchema, dossierSchema, refundQuoteSchema, refundSchema } from '@/features/orderdesk/api/orders';
import { deskInvoicePageSchema, deskInvoiceSchema } from '@/features/orderdesk/api/invoices';
import { statisticsSchema } from '@/features/rechargestats/api/statistics';
import { overviewSchema, payConfigSchema } from '@/features/platforms/api/payConfig';
import {
  deviceCheckSchema,
  levelChoiceSchema,
  packageChoiceSchema,
  purchaseDetailSchema,
  purchasePageSchema,
} from '@/features/offline/api/offline';
import { noticeSchema } from '@/lib/api/notice';
import { operationLabelsSchema, operationPageSchema } from '@/lib/api/operationLog';
import { projectChangedSchema, projectDeletedSchema, projectPageSchema, projectSchema } from '@/lib/api/projects';
import { assetDeletedSchema, assetDetailSchema, assetPageSchema } from '@/features/assets/api/assets';
import {
  alarmCountSchema, newShareLinkSchema, ownerTripSchema, shareLinksSchema, waybillDetailSchema, waybillTemplatePageSchema, waybillTemplateSchema,
  waybillPageSchema,
} from '@/features/waybills/api/waybills';
import {
  catalogueTypeSchema,
  giftSchema,
  itemSchema,
  levelSchema as catalogueLevelSchema,
  packageDetailSchema,
  packagePageSchema,
  packageSchema,
} from '@/features/catalogue/api/packages';
import { scenePermissionsSchema } from '@/lib/api/scenePermissions';
import {
  appliedSchema as calibrationAppliedSchema,
  applicationPageSchema as calibrationPageSchema,
  applicationSchema as calibrationSchema,
  cancelCheckSchema as calibrationCancelCheckSchema,
  cancelledSchema,
  certificateSchema as calibrationCertificateSchema,
  invoiceSchema as calibrationInvoiceSchema,
  paidSchema,
  paymentSchema,
  priceSchema as calibrationPriceSchema,
} from '@/lib/api/calibration';
import {
  revokedSchema,
  sharedSchema,
  sharePageSchema,
  templateListSchema,
  templateSchema,
  transferPreviewSchema,
  transferredSchema,
} from '@/lib/api/sharing';
import { tokenSchema } from '@/lib/api/session';
import { quickAnswerSchema, tripSchema, verifySchema } from '@/features/quickquery/api/quickQuery';
import {
  fenceDeletedSchema, fenceDetailSchema, fenceEventPageSchema, fencePageSchema,
} from '@/features/geofence/api/fences';
import { editionConfigSchema } from '@/lib/config';
// FDA 21 CFR Part 11 (issue 22)
import {
  endorsementPageSchema, endorsementSchema, fdaStatusSchema, reportPageSchema, reportSchema as fdaReportSchema, signatureRowSchema,
  signaturePageSchema, signingStateSchema, switchedSchema, trailPageSchema, unlockedSchema, verificationSchema,
} from '@/lib/api/fda';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const SOURCES = join(ROOT, 'web/src');
const NOTHING = z.null();

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
/** The client reads only some of the answer on purpose (a picker, a drawer): fields it leaves are fine. */
const PART = 'part';

/** What each call's answer (`data` of the envelope) is parsed with; paths as the server serves them. */
const CONTRACT: readonly [Method, string, z.ZodType, typeof PART?][] = [
  ['GET', '/api/base/config', editionConfigSchema],
  ['GET', '/api/device/QuickSearch/waybill', quickAnswerSchema],
  ['GET', '/api/device/QuickSearch/share', tripSchema],
  ['GET', '/api/device/QuickSearch/verify', verifySchema],
  ['POST', '/api/device/DeviceFence/page', fencePageSchema],
  ['GET', '/api/device/DeviceFence/get', fenceDetailSchema],
  ['POST', '/api/device/DeviceFence/insert', fenceDetailSchema],
  ['PUT', '/api/device/DeviceFence/update', fenceDetailSchema],
  ['DELETE', '/api/device/DeviceFence/delete', fenceDeletedSchema],
  ['POST', '/api/device/DeviceFence/bindDevices', fenceDetailSchema],
  ['POST', '/api/device/DeviceFence/unbindDevices', fenceDetailSchema],
  ['POST', '/api/device/DeviceFence/events', fenceEventPageSchema],
  ['GET', '/api/base/BaseAccount/accountInfo', accountInfoSchema],
  ['POST', '/api/base/BaseAccount/login', tokenSchema],
  ['POST', '/api/base/BaseAccount/login/toOldPaltform', tokenSchema],
  ['POST', '/api/base/BaseAccount/code/login', NOTHING],
  ['GET', '/api/base/BaseAccount/code/phone', NOTHING],
  ['GET', '/api/base/BaseAccount/code/email', NOTHING],
  ['POST', '/api/base/BaseAccount/forgot', NOTHING],
  ['POST', '/api/base/BaseAccount/binding', NOTHING],
  ['POST', '/api/base/BaseAccount/register', registeredSchema],
  ['GET', '/api/base/BaseAccount/getScenePermissionList', scenePermissionsSchema],
  ['GET', '/api/base/BaseCustomPage/queryByTopDomain', customPageSchema.nullable()],
  ['POST', '/api/base/BaseNotice/queryNotice', noticeSchema.nullable()],
  ['GET', '/api/base/BaseDict/queryByType', z.array(dictItemSchema)],
  ['POST', '/api/base/BaseAccount/uploadHeadPhoto', photoSchema],
  ['POST', '/api/base/BaseAccount/modifyPreferences', NOTHING],
  ['POST', '/api/base/BaseAccount/modifyBaseInfo', NOTHING],
  ['POST', '/api/base/BaseAccount/modifyPhoneAndPassword', NOTHING],
  ['POST', '/api/base/BaseAccount/modifyEmailAndPassword', NOTHING],
  ['GET', '/api/base/BaseMessage/channels', z.array(channelChoiceSchema)],
  ['POST', '/api/base/BaseMessage/channels', z.array(channelChoiceSchema)],
  ['POST', '/api/base/BaseMessage/page', systemMessagePageSchema],
  ['GET', '/api/base/BaseMessage/unreadCount', unreadCountSchema],
  ['POST', '/api/base/BaseMessage/read', readResultSchema],
  ['POST', '/api/base/BaseMessage/answer', systemMessageSchema],
  ['GET', '/api/base/BaseOrganization/list', z.array(myOrganizationSchema)],
  ['POST', '/api/base/BaseOrganization/insert', myOrganizationSchema],
  ['GET', '/api/base/BaseOrganization/members', membersSchema],
  ['GET', '/api/base/BaseRole/queryRoleByOrganizationType', z.array(organizationRoleSchema)],
  ['GET', '/api/base/BaseRole/queryOrganizationPermissions', z.array(permissionRouteSchema)],
  ['POST', '/api/base/BaseRole/insert', organizationRoleSchema],
  ['PUT', '/api/base/BaseRole/update', organizationRoleSchema],
  ['POST', '/api/base/BaseAccount/invite', invitationSchema],
  ['GET', '/api/base/BaseDict/queryByType', z.array(countryCodeSchema)],
  ['GET', '/api/device/Device/homeCounts', homeCountsSchema],
  ['GET', '/api/device/Device/operatorHomeCounts', operatorHomeCountsSchema],
  ['GET', '/api/base/BaseUserProfile/homeTiles', homeTilesSchema],
  ['POST', '/api/base/BaseUserProfile/homeTiles', homeTilesSchema],
  ['POST', '/api/device/Device/track', trackSchema],
  ['POST', '/api/device/Device/energy', energySchema],
  ['POST', '/api/device/Device/markers', deviceMarkersSchema],
  ['POST', '/api/device/Device/page', devicePageSchema],
  ['POST', '/api/device/Device/page', optionPageSchema, PART],
  ['GET', '/api/device/Device/get', deviceDetailSchema],
  ['PUT', '/api/device/Device/update', deviceDetailSchema],
  ['GET', '/api/device/DeviceType/selectTypeList', z.array(deviceTypeSchema)],
  ['POST', '/api/device/Device/insert', deviceAddedSchema],
  ['POST', '/api/device/Device/credentials/rotate', brokerLoginSchema],
  ['GET', '/api/device/Device/connection', connectionSchema],
  ['POST', '/api/device/Device/batchInsert', sheetReportSchema],
  ['POST', '/api/device/Device/batchDelete', batchDeletedSchema],
  ['POST', '/api/device/Device/clearData', dataClearedSchema],
  ['POST', '/api/device/Device/scrap', scrappedSchema],
  ['POST', '/api/device/Device/restore', restoredSchema],
  ['POST', '/api/device/Device/history', historySchema],
  ['GET', '/api/device/DeviceExpireInfo/getExpiredInfoByType', expiredInfoSchema],
  ['GET', '/api/device/Device/getExpiredServiceDevice', expiredPageSchema],
  ['POST', '/api/device/DeviceAlarmRule/page', alarmRulePageSchema],
  ['POST', '/api/device/DeviceAlarmRule/insert', alarmRuleSchema],
  ['PUT', '/api/device/DeviceAlarmRule/update', alarmRuleSchema],
  ['GET', '/api/device/DeviceAlarmPushSetting/get', pushSettingSchema],
  ['PUT', '/api/device/DeviceAlarmPushSetting/update', pushSettingSchema],
  ['GET', '/api/device/DeviceParam/get', paramsStateSchema],
  ['POST', '/api/device/DeviceParam/save', paramsStateSchema],
  ['POST', '/api/device/DeviceOperationLog/page', deviceEventPageSchema],
  ['POST', '/api/device/DeviceMaintenance/page', maintenancePageSchema],
  ['POST', '/api/device/DeviceMaintenance/insert', maintenanceSchema],
  ['PUT', '/api/device/DeviceMaintenance/update', maintenanceSchema],
  ['POST', '/api/device/DeviceAlarm/page', alarmPageSchema],
  ['POST', '/api/device/DeviceAlarm/deal', alarmSchema],
  ['POST', '/api/device/DeviceAlarm/deferrals', deferralPageSchema],
  ['GET', '/api/device/DeviceAlarm/count', untreatedCountSchema],
  ['POST', '/api/device/DeviceDataExport/create', exportSchema],
  ['POST', '/api/device/DeviceDataExport/createDeviceList', exportSchema],
  ['POST', '/api/device/DeviceDataExport/page', exportPageSchema],
  ['GET', '/api/device/DeviceDataExport/readyCount', readyCountSchema],
  ['POST', '/api/device/DeviceDataExport/retry', exportSchema],
  ['POST', '/api/device/ScheduledReport/page', schedulePageSchema],
  ['POST', '/api/device/ScheduledReport/insert', scheduleSchema],
  ['POST', '/api/device/ScheduledReport/update', scheduleSchema],
  ['POST', '/api/device/ScheduledReport/runs', runPageSchema],
  ['POST', '/api/device/Project/page', projectPageSchema],
  ['GET', '/api/calibration/Device/calibration', deviceCalibrationSchema],
  ['POST', '/api/calibration/Device/interval', deviceCalibrationSchema],
  ['GET', '/api/device/Project/get', projectSchema],
  ['POST', '/api/device/Project/insert', projectSchema],
  ['PUT', '/api/device/Project/update', projectSchema],
  ['DELETE', '/api/device/Project/delete', projectDeletedSchema],
  ['POST', '/api/base/BaseAccount/queryUserByCondition', userPageSchema],
  ['POST', '/api/base/BaseAccount/sysAddUser', addedUserSchema],
  ['POST', '/api/base/BaseAccount/sysModifyUser', managedUserSchema],
  ['POST', '/api/payment/PayActivity/selectPackageActivity', activityPageSchema],
  ['GET', '/api/payment/PayActivity/selectServicePackageActivity', z.array(optionLabelSchema)],
  ['POST', '/api/payment/PayActivityAccountRel/selectListByDomain', z.array(targetAccountSchema)],
  ['POST', '/api/payment/PayActivity/insertActivity', activitySchema],
  ['PUT', '/api/payment/PayActivity/update', activitySchema],
  ['POST', '/api/payment/PayActivity/enableActivity', activitySchema],
  ['POST', '/api/payment/PayActivity/stopActivity', activitySchema],
  ['POST', '/api/payment/PayActivity/copyActivity', activitySchema],
  ['POST', '/api/payment/PayActivity/selectRechargeListByActivity', activityOrderPageSchema],
  ['POST', '/api/payment/activity/PayActivityDeposit/selectDepositList', depositPageSchema],
  ['POST', '/api/payment/PayServicePackages/selectDepositView', serviceDepositViewSchema],
  ['POST', '/api/payment/PaySmsPackages/selectDepositView', alertDepositViewSchema],
  ['POST', '/api/payment/PaySmsPackages/selectSmsPackageList', z.array(alertPackageAdminSchema)],
  ['POST', '/api/payment/PaySmsPackages/insert', alertPackageAdminSchema],
  ['PUT', '/api/payment/PaySmsPackages/update', alertPackageAdminSchema],
  ['POST', '/api/payment/PaySmsPackages/sortPackage', z.array(alertPackageAdminSchema)],
  ['POST', '/api/payment/PaySmsPackages/importSmsPackages', importReportSchema],
  ['POST', '/api/base/BaseAccount/resetPasswordBySys', newPasswordSchema],
  ['PUT', '/api/base/BaseAccount/userTypeUpgrade', managedUserSchema],
  // The account page's own upgrade and application read only the new type and contractor state.
  ['PUT', '/api/base/BaseAccount/userTypeUpgrade', changedAccountSchema, PART],
  ['POST', '/api/base/BaseAccount/contractorApply', changedAccountSchema, PART],
  ['GET', '/api/base/BaseAccount/contractorAgreement', contractorAgreementSchema],
  ['POST', '/api/base/BaseAccount/contractorCertify', managedUserSchema],
  ['POST', '/api/base/BaseRole/querySystemRoleList', z.array(systemRoleSchema)],
  ['GET', '/api/base/BaseRole/queryRolesByCampAccount', z.array(accountRoleSchema)],
  ['POST', '/api/device/Device/changeProject', projectChangedSchema],
  ['POST', '/api/device/Device/changeOrganization', organizationChangedSchema],
  ['POST', '/api/device/Asset/page', assetPageSchema],
  ['GET', '/api/device/Asset/get', assetDetailSchema],
  ['POST', '/api/device/Asset/insert', assetDetailSchema],
  ['PUT', '/api/device/Asset/update', assetDetailSchema],
  ['DELETE', '/api/device/Asset/delete', assetDeletedSchema],
  ['PUT', '/api/device/Asset/enable', assetDetailSchema],
  ['PUT', '/api/device/Asset/disable', assetDetailSchema],
  ['POST', '/api/device/Asset/bindDevice', assetDetailSchema],
  ['POST', '/api/device/Asset/unbindDevice', assetDetailSchema],
  ['POST', '/api/device/Waybill/page', waybillPageSchema],
  ['GET', '/api/device/Waybill/get', waybillDetailSchema],
  ['POST', '/api/device/Waybill/insert', waybillDetailSchema],
  ['PUT', '/api/device/Waybill/update', waybillDetailSchema],
  ['DELETE', '/api/device/Waybill/delete', NOTHING],
  ['POST', '/api/device/Waybill/updateState', waybillDetailSchema],
  ['POST', '/api/device/Waybill/batchBind', waybillDetailSchema],
  ['POST', '/api/device/Waybill/unbind', waybillDetailSchema],
  ['GET', '/api/device/Waybill/alarmCount', alarmCountSchema],
  ['GET', '/api/device/Waybill/report', ownerTripSchema],
  ['POST', '/api/device/Waybill/share', newShareLinkSchema],
  ['GET', '/api/device/Waybill/shareList', shareLinksSchema],
  ['POST', '/api/device/Waybill/shareRevoke', NOTHING],
  ['POST', '/api/device/WaybillTemplate/page', waybillTemplatePageSchema],
  ['POST', '/api/device/WaybillTemplate/insert', waybillTemplateSchema],
  ['POST', '/api/payment/PayServicePackages/selectPackagesList', packagePageSchema],
  ['GET', '/api/payment/PayServicePackages/selectPackagesDetail', packageDetailSchema],
  ['POST', '/api/payment/PayServicePackages/insert', packageSchema],
  ['PUT', '/api/payment/PayServicePackages/update', packageSchema],
  ['POST', '/api/payment/PayServicePackages/enableServicePackage', packageSchema],
  ['POST', '/api/payment/PayServicePackages/stopServicePackage', packageSchema],
  ['GET', '/api/payment/PayServiceDeviceTypeRel/selectAllTypeList', z.array(catalogueTypeSchema)],
  ['POST', '/api/payment/PayServiceLevel/insert', catalogueLevelSchema],
  ['PUT', '/api/payment/PayServiceLevel/update', catalogueLevelSchema],
  ['DELETE', '/api/payment/PayServiceLevel/delete', NOTHING],
  ['POST', '/api/payment/PayServiceLevel/sortLevel', z.array(catalogueLevelSchema)],
  ['POST', '/api/payment/PayServiceLevel/uploadLevelIcon', catalogueLevelSchema],
  ['PUT', '/api/payment/PayServicePresentation/update', giftSchema],
  ['GET', '/api/payment/PayServiceItem/selectAllItem', z.array(itemSchema)],
  ['POST', '/api/payment/PayServiceItem/insert', itemSchema],
  ['PUT', '/api/payment/PayServiceItem/update', itemSchema],
  ['DELETE', '/api/payment/PayServiceItem/delete', NOTHING],
  ['POST', '/api/payment/PayServiceItem/sortItem', z.array(itemSchema)],
  ['POST', '/api/base/OperationLog/page', operationPageSchema],
  ['GET', '/api/base/OperationLog/labels', operationLabelsSchema],
  ['POST', '/api/device/DeviceOperationLog/changes', operationPageSchema],
  ['POST', '/api/device/DevicePermissionModel/list', templateListSchema],
  ['POST', '/api/device/DevicePermissionModel/insert', templateSchema],
  ['PUT', '/api/device/DevicePermissionModel/update', templateSchema],
  ['POST', '/api/device/Device/share', sharedSchema],
  ['POST', '/api/device/DeviceShare/page', sharePageSchema],
  ['POST', '/api/device/DeviceShare/revoke', revokedSchema],
  ['POST', '/api/device/Device/transferPreview', transferPreviewSchema],
  ['POST', '/api/device/Device/transfer', transferredSchema],
  ['GET', '/api/payment/PayServicePackages/selectDeviceDepositInfo', depositInfoSchema, PART],
  ['GET', '/api/payment/PayServiceItem/selectAllServiceItemByDevice', z.array(serviceItemSchema)],
  ['GET', '/api/payment/PayServicePackages/selectLevelList', z.array(levelSchema)],
  ['GET', '/api/payment/PayServiceLevelYear/selectListByDomain', yearOptionListSchema],
  ['POST', '/api/payment/PayOrder/selectBatchQuote', z.array(deviceQuoteSchema)],
  ['POST', '/api/payment/PayOrder/createServiceOrder', orderPlacedSchema],
  ['POST', '/api/payment/PayOrder/createBatchServiceOrder', orderPlacedSchema],
  ['POST', '/api/payment/PayOrder/createSmsOrder', orderPlacedSchema],
  ['POST', '/api/payment/PayOrder/createBatchSmsOrder', orderPlacedSchema],
  // Polled for its state only; the payment details came with the order.
  ['GET', '/api/payment/PayOrder/get', orderStatusSchema, PART],
  ['POST', '/api/payment/PayOrder/confirmPay', payStatusSchema],
  ['POST', '/api/payment/PayOrder/selectMyOrderList', myOrderPageSchema],
  ['POST', '/api/payment/PayOrder/selectOrderList', deskPageSchema],
  ['GET', '/api/payment/PayOrder/selectBackOrderDetail', dossierSchema, PART],
  ['POST', '/api/payment/PayOrder/handlingOrder', deskOrderSchema],
  ['POST', '/api/payment/PayRefund/preview', refundQuoteSchema],
  ['POST', '/api/payment/PayRefund/refundOrder', refundSchema],
  ['POST', '/api/payment/PayRefund/approve', refundSchema],
  ['POST', '/api/payment/PayRefund/reject', refundSchema],
  ['GET', '/api/payment/PayRefund/awaitingList', z.array(refundSchema)],
  ['POST', '/api/payment/PayOrder/rechargeStatistics', statisticsSchema],
  ['GET', '/api/payment/PayPdConfig/overview', overviewSchema],
  ['GET', '/api/payment/PayPdConfig/selectByCamp', payConfigSchema],
  ['PUT', '/api/payment/PayPdConfig/update', payConfigSchema],
  ['DELETE', '/api/payment/PayPdConfig/delete', payConfigSchema],
  ['POST', '/api/payment/PayOfflineDeviceService/selectOfflineList', purchasePageSchema],
  ['GET', '/api/payment/PayOfflineDeviceService/selectOfflineServiceList', purchaseDetailSchema],
  ['POST', '/api/payment/PayOfflineDeviceService/addDeviceList', deviceCheckSchema],
  ['POST', '/api/payment/PayOfflineDeviceService/getPackageByFile', deviceCheckSchema],
  ['POST', '/api/payment/PayOfflineDeviceService/insert', purchaseDetailSchema],
  ['POST', '/api/payment/PayOfflineExamine/selectExamineList', purchasePageSchema],
  ['PUT', '/api/payment/PayOfflineExamine/updateExamine', purchaseDetailSchema],
  // the offline purchase's level picker reads only the names and service times of the catalogue
  ['POST', '/api/payment/PayServicePackages/selectPackagesList', packageChoiceSchema, PART],
  ['GET', '/api/payment/PayServiceLevel/selectServiceLevels', levelChoiceSchema, PART],
  ['POST', '/api/payment/PayOrder/selectOrderDetail', orderDetailSchema],
  ['POST', '/api/payment/PayOrder/cancelOrder', orderStatusSchema, PART],
  ['POST', '/api/payment/PayOrder/continuePay', resumedPaymentSchema],
  ['GET', '/api/payment/PayOrder/selectCurrentService', currentServiceSchema.nullable()],
  ['GET', '/api/payment/PaySmsPackages/selectSmsPackage', alertPackagesSchema],
  ['GET', '/api/payment/PayOrder/selectOrderInvoice', deskInvoicePageSchema],
  ['POST', '/api/payment/PayInvoice/issue', deskInvoiceSchema],
  ['POST', '/api/payment/PayOrder/updateInvoice', deskInvoiceSchema],
  ['POST', '/api/payment/PayInvoice/reject', deskInvoiceSchema],
  ['GET', '/api/payment/PayInvoice/invoiceableOrders', z.array(invoiceableOrderSchema)],
  ['POST', '/api/payment/PayInvoice/applyBatchInvoice', invoiceSchema],
  ['GET', '/api/payment/PayInvoice/myInvoices', myInvoicePageSchema],
  ['POST', '/api/payment/PayUserBill/selectListByDomain', z.array(billSchema)],
  ['POST', '/api/payment/PayUserBill/insert', billSchema],
  ['PUT', '/api/payment/PayUserBill/update', billSchema],
  ['POST', '/api/payment/activity/PayCoupon/checkCoupon', couponQuoteSchema],
  ['POST', '/api/payment/activity/PayCoupon/selectMyCoupons', couponPageSchema],
  ['POST', '/api/payment/activity/PayCoupon/selectCouponList', couponBatchPageSchema],
  ['POST', '/api/payment/activity/PayCoupon/createCoupon', couponBatchSchema],
  ['PUT', '/api/payment/activity/PayCoupon/updateCoupon', couponBatchSchema],
  ['POST', '/api/payment/activity/PayCoupon/selectCouponCodeList', couponPageSchema],
  ['GET', '/api/payment/activity/PayCoupon/selectReferences', referencesSchema],
  ['POST', '/api/payment/activity/PayCardSecret/redeemCard', redeemedSchema],
  ['POST', '/api/payment/activity/PayCardSecret/selectMyCards', cardPageSchema],
  ['POST', '/api/payment/activity/PayCardSecret/selectCardSecretList', cardBatchPageSchema],
  ['PUT', '/api/payment/activity/PayCardSecret/updateCardSecret', cardBatchSchema],
  ['POST', '/api/payment/activity/PayCardSecret/selectCardList', cardPageSchema],
  // calibration lab (issue 21)
  ['POST', '/api/calibration/Application/page/allApplicationOrder', labApplicationPageSchema],
  ['POST', '/api/calibration/Application/page/allQuickOrder', labApplicationPageSchema],
  ['POST', '/api/calibration/Application/handleQuickOrder', labApplicationSchema],
  ['GET', '/api/calibration/Application/get/applicationInfo', labApplicationSchema],
  ['POST', '/api/calibration/Application/applicationStatus', labApplicationSchema],
  ['POST', '/api/calibration/Application/trackingNumber', labApplicationSchema],
  ['POST', '/api/calibration/ResultInfo/queryResultList', z.array(certificateSchema)],
  ['POST', '/api/calibration/ResultInfo/insert', certificateSchema],
  ['PUT', '/api/calibration/ResultInfo/update', certificateSchema],
  ['POST', '/api/calibration/ResultInfo/importCert', certificateSchema],
  ['POST', '/api/calibration/Application/result/explain', certificateSchema],
  ['POST', '/api/calibration/ResultInfo/issue', certificateSchema],
  ['POST', '/api/calibration/ResultInfo/correct', certificateSchema],
  ['PUT', '/api/calibration/PriceConf/update/price', priceSetSchema],
  // calibration, the customer's calls (lib/api/calibration.ts)
  ['GET', '/api/calibration/PriceConf/get/price', z.array(calibrationPriceSchema)],
  ['POST', '/api/calibration/Application/apply', calibrationAppliedSchema],
  ['POST', '/api/calibration/Application/applyQuickOrder', calibrationAppliedSchema],
  ['POST', '/api/calibration/Application/page/ApplicationOrder', calibrationPageSchema],
  ['GET', '/api/calibration/Application/get/applicationInfo', calibrationSchema],
  ['POST', '/api/calibration/Application/trackingNumber', calibrationSchema],
  ['POST', '/api/calibration/Application/update/baseInfo', calibrationSchema],
  ['POST', '/api/calibration/Application/update/invoice', calibrationSchema],
  ['GET', '/api/calibration/Application/getUserInvoice', calibrationInvoiceSchema.nullable()],
  ['POST', '/api/calibration/Application/cancel/check', calibrationCancelCheckSchema],
  ['POST', '/api/calibration/ResultInfo/queryResultList', z.array(calibrationCertificateSchema)],
  ['POST', '/api/payment/payment/aliPay', paymentSchema],
  ['POST', '/api/payment/payment/wechatPay', paymentSchema],
  ['POST', '/api/payment/payment/calibrationPay', paymentSchema],
  ['GET', '/api/payment/payment/confirmCalibration', paidSchema],
  ['POST', '/api/calibration/Application/cancel/apply', cancelledSchema],
  // FDA 21 CFR Part 11 (issue 22; lib/api/fda.ts)
  ['GET', '/api/device/FdaRecord/status', fdaStatusSchema],
  ['GET', '/api/device/FdaRecord/signingState', signingStateSchema],
  ['POST', '/api/device/FdaRecord/enable', switchedSchema],
  ['POST', '/api/device/FdaRecord/disable', switchedSchema],
  ['POST', '/api/device/FdaRecord/sign', signatureRowSchema],
  ['GET', '/api/device/FdaRecord/recordSignatures', z.array(signatureRowSchema)],
  ['POST', '/api/device/FdaRecord/signatures', signaturePageSchema],
  ['POST', '/api/device/FdaRecord/unlockSigning', unlockedSchema],
  ['GET', '/api/device/FdaRecord/verify', verificationSchema],
  ['POST', '/api/device/FdaRecord/trail', trailPageSchema],
  ['POST', '/api/device/FdaEndorsement/page', endorsementPageSchema],
  ['POST', '/api/device/FdaEndorsement/insert', endorsementSchema],
  ['POST', '/api/device/FdaEndorsement/update', endorsementSchema],
  ['POST', '/api/device/FdaReport/insert', fdaReportSchema],
  ['POST', '/api/device/FdaReport/page', reportPageSchema],
  ['GET', '/api/device/FdaReport/get', fdaReportSchema],
];

/** Calls whose answer the client does not read, so there is nothing to compare. */
const UNREAD: readonly [Method, string][] = [
  ['GET', '/api/base/BaseAccount/loginOut'],
  ['POST', '/api/base/BaseUserProfile/update'],
  ['GET', '/api/payment/PayOrder/unAgreement'],
  ['DELETE', '/api/payment/PayUserBill/delete'],
  ['DELETE', '/api/payment/PayOfflineDeviceService/delete/list'],
  ['DELETE', '/api/device/DeviceMaintenance/delete'],
  ['DELETE', '/api/device/DeviceAlarmRule/delete'],
  ['DELETE', '/api/device/DeviceDataExport/delete'],
  ['DELETE', '/api/device/ScheduledReport/delete'],
  ['PUT', '/api/base/BaseOrganization/update'],
  ['DELETE', '/api/base/BaseOrganization/delete'],
  ['DELETE', '/api/base/BaseAccount/withdrawInvitation'],
  ['DELETE', '/api/base/BaseAccount/deleteInOrganization'],
  ['PUT', '/api/base/BaseRole/updateRoleInOrganization'],
  ['DELETE', '/api/base/BaseRole/delete'],
  ['PUT', '/api/base/BaseAccount/updateAccountOrganizationRel'],
  ['POST', '/api/base/BaseAccount/sysDeleteUser'],
  ['DELETE', '/api/payment/PayActivity/delete'],
  ['DELETE', '/api/payment/PaySmsPackages/delete'],
  ['GET', '/api/payment/payment/getOpenId'],
  ['DELETE', '/api/device/DevicePermissionModel/delete'],
  ['PUT', '/api/device/DeviceShare/update'],
  // an XLSX, saved as it comes (api.download)
  ['POST', '/api/payment/PayOrder/exportRechargeStatistics'],
  ['GET', '/api/device/Waybill/reportPdf'],
  ['POST', '/api/device/Waybill/export'],
  // calibration (issue 21): the lab's report PDF sent and saved as it comes, the order and certificate PDFs
  ['POST', '/api/calibration/Application/upload/report'],
  ['GET', '/api/calibration/Application/download/report'],
  ['GET', '/api/calibration/Application/download/order'],
  ['GET', '/api/calibration/ResultInfo/download/certificate'],
  // FDA (issue 22): answered with no data, and the trail's XLSX and the report's PDF saved as they come
  ['POST', '/api/device/FdaEndorsement/delete'],
  ['GET', '/api/device/FdaRecord/trail/export'],
  ['GET', '/api/device/FdaReport/download'],
];

// ---- a schema reduced to what both sides can say: types, null, fields and whether each is sent

interface Shape {
  /** 'string', 'number', 'integer', 'boolean', 'object', 'array'; empty: anything. */
  types: Set<string>;
  nullable: boolean;
  properties?: Map<string, Shape>;
  required?: Set<string>;
  items?: Shape;
  /** The client fills it in when the answer leaves it out (a zod default). */
  defaulted?: boolean;
}

type Json = Record<string, unknown>;

function shapeOf(schema: Json, resolve: (ref: string) => Json): Shape {
  if (typeof schema.$ref === 'string') return shapeOf(resolve(schema.$ref), resolve);
  const nullable = schema.nullable === true;
  const branches = (schema.allOf ?? schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (branches) {
    const shapes = branches.map((branch) => shapeOf(branch, resolve));
    const types = new Set(shapes.flatMap((shape) => [...shape.types]));
    const object = shapes.find((shape) => shape.properties);
    const array = shapes.find((shape) => shape.items);
    return {
      types: shapes.some((shape) => shape.types.size === 0 && !shape.nullable) ? new Set() : types,
      nullable: nullable || shapes.some((shape) => shape.nullable),
      ...(object ? { properties: object.properties, required: object.required } : {}),
      ...(array ? { items: array.items } : {}),
    };
  }
  if (Array.isArray(schema.enum) && schema.enum.length === 1 && schema.enum[0] === null) {
    return { types: new Set(['null']), nullable: true };
  }
  const declared = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  const types = new Set((declared as string[]).filter((type) => type !== 'null'));
  if (types.size === 0 && schema.properties) types.add('object');
  const shape: Shape = { types, nullable: nullable || declared.includes('null'), defaulted: 'default' in schema };
  if (schema.properties) {
    shape.properties = new Map(
      Object.entries(schema.properties as Record<string, Json>).map(([name, field]) => [name, shapeOf(field, resolve)]),
    );
    shape.required = new Set((schema.required as string[] | undefined) ?? []);
  }
  if (schema.items) shape.items = shapeOf(schema.items as Json, resolve);
  return shape;
}

const isAnything = (shape: Shape) => shape.types.size === 0 && !shape.nullable;
const accepts = (client: Set<string>, type: string) => client.has(type) || (type === 'integer' && client.has('number'));
const typeText = (shape: Shape) => [...shape.types].sort().join(' | ') || 'null';

/**
 * The disagreements between the client's shape and the server's at `where`, both ways; with `part`,
 * fields the server sends and the client leaves are not among them.
 */
function disagreements(client: Shape, server: Shape, where: string, part = false): string[] {
  if (isAnything(client) || isAnything(server)) return [];
  const found: string[] = [];
  if (server.nullable && !client.nullable) found.push(`${where}: the server may send null, the client refuses it`);
  if (client.nullable && !server.nullable) found.push(`${where}: the client takes null, the server never sends it`);
  const serverTypes = [...server.types].filter((type) => type !== 'null');
  const clientTypes = [...client.types].filter((type) => type !== 'null');
  const refused = serverTypes.filter((type) => !accepts(client.types, type));
  const unsent = clientTypes.filter((type) => !serverTypes.some((sent) => sent === type || (type === 'number' && sent === 'integer')));
  if (refused.length || unsent.length) {
    found.push(`${where}: the client reads ${typeText(client)}, the server sends ${typeText(server)}`);
    return found;
  }
  if (client.properties && server.properties) {
    const names = new Set([...client.properties.keys(), ...server.properties.keys()]);
    for (const name of [...names].sort()) {
      const at = `${where}.${name}`;
      const mine = client.properties.get(name);
      const theirs = server.properties.get(name);
      if (!theirs) found.push(`${at}: the client reads it, the server does not send it`);
      else if (!mine) {
        if (!part) found.push(`${at}: the server sends it, the client does not read it`);
      }
      else {
        const sent = server.required?.has(name) ?? false;
        const needed = client.required?.has(name) ?? false;
        if (needed && !sent) found.push(`${at}: the client requires it, the server may leave it out`);
        // A default reads an older server's answer without the field as well as one that always has it.
        if (sent && !needed && !mine.defaulted) found.push(`${at}: the server always sends it, the client takes it as optional`);
        found.push(...disagreements(mine, theirs, at, part));
      }
    }
  }
  if (client.items && server.items) found.push(...disagreements(client.items, server.items, `${where}[]`, part));
  return found;
}

// ---- the server's document

let document: Json;

function resolveIn(ref: string): Json {
  const name = ref.replace('#/components/schemas/', '');
  const schema = ((document.components as Json).schemas as Record<string, Json>)[name];
  if (!schema) throw new Error(`the OpenAPI document has no schema ${ref}`);
  return schema;
}

/** The `data` of the 200 envelope `method path` answers with. */
function answerOf(method: Method, path: string): Json {
  const operation = ((document.paths as Record<string, Json>)[path] ?? {})[method.toLowerCase()] as Json | undefined;
  if (!operation) throw new Error(`the server has no ${method} ${path}`);
  const ok = (operation.responses as Record<string, Json>)['200'];
  const envelope = ((ok?.content as Record<string, Json> | undefined)?.['application/json']?.schema ?? {}) as Json;
  const data = shapeSource(envelope).properties as Record<string, Json> | undefined;
  if (!data?.data) throw new Error(`${method} ${path} documents no envelope with data`);
  return data.data;
}

function shapeSource(schema: Json): Json {
  return typeof schema.$ref === 'string' ? shapeSource(resolveIn(schema.$ref)) : schema;
}

beforeAll(() => {
  // The repository's own src first, whatever the shared virtualenv points at.
  const printed = execFileSync(join(ROOT, '.venv/bin/coldchain'), ['openapi'], {
    cwd: ROOT,
    env: { ...process.env, PYTHONPATH: join(ROOT, 'src') },
    maxBuffer: 64 * 1024 * 1024,
    encoding: 'utf8',
  });
  document = JSON.parse(printed) as Json;
}, 120_000);

describe('the client reads each answer as the server documents it', () => {
  it.each(CONTRACT.map(([method, path, schema, part]) => ({ call: `${method} ${path}`, method, path, schema, part })))(
    '$call',
    ({ method, path, schema, part }) => {
      const client = shapeOf(
        z.toJSONSchema(schema, { target: 'openapi-3.0', io: 'input', unrepresentable: 'any' }) as Json,
        () => ({}),
      );
      const server = shapeOf(answerOf(method, path), resolveIn);
      const found = disagreements(client, server, 'data', part === PART);
      expect(found, `${method} ${path} disagrees with the server:\n  ${found.join('\n  ')}`).toEqual([]);
    },
  );
});

describe('every call of the client is in the contract above', () => {
  const CALL = /\bapi\.(get|post|put|delete)(?:<[^>]*>)?\(\s*(['`])([^'`]+)\2/g;

  function sources(folder: string): string[] {
    return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) return entry.name === 'test' ? [] : sources(path);
      return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
    });
  }

  it('checks or names as unread each call the sources make', () => {
    const known = [...CONTRACT.map(([method, path]) => `${method} ${path}`), ...UNREAD.map(([method, path]) => `${method} ${path}`)];
    const missing: string[] = [];
    for (const file of sources(SOURCES)) {
      for (const [, method, , path] of readFileSync(file, 'utf8').matchAll(CALL)) {
        const call = `${method!.toUpperCase()} /api${path!}`;
        const pattern = new RegExp(`^${call.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\\\$\\\{[^}]*\\\}/g, '[^/]+')}$`);
        if (!known.some((entry) => pattern.test(entry))) missing.push(`${relative(SOURCES, file)}: ${call}`);
      }
    }
    expect(missing, `calls neither compared nor named as unread:\n  ${missing.join('\n  ')}`).toEqual([]);
  });
});
