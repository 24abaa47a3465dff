"""Every permission the console knows, from the route catalogue of spec seed 001 section 2.

A route permission is a dotted name (`device.list`); the spec gives some names in brackets and the
rest follow the same style from the path. A button permission is its route permission plus an
action (`device.list:add`), which is what the client's action directive checks.
"""

from __future__ import annotations

from dataclasses import dataclass

ACTIONS = ("add", "delete", "edit", "query", "detail", "enable", "disable", "import", "export", "refund")
CRUD = ("add", "delete", "edit", "query", "detail")
CRUD_IO = CRUD + ("import", "export")
SWITCHABLE = CRUD + ("enable", "disable")

MAIN, CLOUD_CHAIN = 1, 2
MY_PROJECT = "cloudChain.myProject"
MARKET_MANAGE = "marketManage"


@dataclass(frozen=True)
class Permission:
    name: str
    scenes: frozenset[int]
    back_office: bool = False

    @property
    def route(self) -> str:
        return self.name.split(":", 1)[0]


def _route(name: str, actions: tuple[str, ...] = (), *, scenes: tuple[int, ...] = (MAIN,),
           back_office: bool = False) -> list[Permission]:
    scene_set = frozenset(scenes)
    return [Permission(name, scene_set, back_office)] + [
        Permission(f"{name}:{action}", scene_set, back_office) for action in actions
    ]


def _office(names: str, actions: tuple[str, ...] = CRUD) -> list[Permission]:
    return [p for name in names.split() for p in _route(name, actions, back_office=True)]


CUSTOMER_ROUTES: list[Permission] = [
    *_route("home"),
    *_route("mall"),
    *_route(MY_PROJECT, CRUD, scenes=(MAIN, CLOUD_CHAIN)),
    *_route("cloudChain.projectOverview"),
    *_route("cloudChain.operation.index"),
    *_route("operateBoard.report"),
    *[p for n in ("freezer", "brand", "product", "pictures", "freezerCollect", "picturesList")
      for p in _route(f"freezerIdentify.{n}", CRUD)],
    *[p for n in ("visualization", "monitor", "energyConsumption", "operation")
      for p in _route(f"storageProject.{n}")],
    *_route("message.list", ("query", "detail", "edit", "delete")),
    *_route("device.list", CRUD_IO),
    *_route("device.detail", ("query", "edit")),
    *_route("waybill.list", CRUD_IO),
    *_route("waybill.geofence", CRUD),
    *_route("asset.list", SWITCHABLE),
    *_route("project.list", CRUD),
    *_route("organization.list", CRUD),
    *_route("fda", ("enable", "disable", "query")),
    *_route("consumer.info", ("edit",)),
    *_route("consumer.wallet", ("query",)),
    *_route("consumer.list", CRUD),
    *_route("consumer.role", CRUD),
    *_route("consumer.recharge", ("query",)),
    *_route("consumer.download", ("query", "export")),
    # A customer's scheduled reports (core/reports): their own devices' readings, mailed.
    *_route("dataCenter.scheduledBackup", CRUD),
    *_route("consumer.sharer", CRUD),
    *_route("operation.log", ("query", "export")),
    *_route("activities.list", ("query",)),
    # A customer's calibration applications (issue 21): apply, list and follow their own; the lab's
    # lists are the back office's calibration.admin.* below.
    *_route("calibration.order", ("add", "query", "detail", "edit")),
]

CLOUD_CHAIN_ROUTES: list[Permission] = [
    p
    for name in (
        "cloudChain.cockpit", "cloudChain.dataMonitor.realtime", "cloudChain.dataMonitor.history",
        "cloudChain.alarmMonitor.realtime", "cloudChain.alarmMonitor.history",
        "cloudChain.alarmMonitor.pushRecord", "cloudChain.videoMonitor", "cloudChain.remoteControl",
        "cloudChain.businessModel", "cloudChain.energyManagement",
    )
    for p in _route(name, ("query",), scenes=(CLOUD_CHAIN,))
]

BACK_OFFICE_ROUTES: list[Permission] = [
    *_office("operation.system.manage operation.device.list operation.lightBusiness operation.plc.list "
             "operation.upgrade operation.guid.content operation.guid.record operation.sim.list "
             "operation.alarmlist operation.pushRecord operation.datapush operation.dataApi "
             "operation.system.apk operation.iosUpgrade operation.dtuLog operation.network "
             "operation.device.pattern", CRUD_IO),
    *_office("product.type product.param product.paramUnit product.series product.alarmRule "
             "product.warnRule product.messageTemplate product.version", CRUD_IO),
    *_office("order.servicePackage order.offlinebuy order.offlineExamine "
             "order.rechargeStatistics order.storageOrders", SWITCHABLE + ("export",)),
    *_office("order.recharge", SWITCHABLE + ("export", "refund")),  # refund: pays an order back
    *_office("system.consumer system.role system.exportDevice", CRUD_IO),
    # payConfig: reads and sets the platforms' merchant accounts (their secrets are written, never read)
    *_office("customized.list", CRUD_IO + ("payConfig",)),
    *_office("notice.list", CRUD_IO),
    *_office("dataCenter.recorderData dataCenter.diseaseControl"),
    *_office("ecoStatistics dataBoard dataInterface.index dataApi.list parameter.list"),
    *_office("video.platform video.device visualization.2d visualization.largeScreen"),
    *_office("marketing.carousel marketing.solution userManual.faq experience.data revenue.index "
             "dealer.index"),
    *_office("cloudCustomized.mindex cloudCustomized.cindex cloudCustomized.recharge "
             "cloudCustom.deviceList cloudCustom.dealer cloudCustom.consumer cloudCustom.role"),
    *_office("calibrationServe calibration.resultList calibration.admin.orders "
             "calibration.admin.quickOrders"),
    *_office(MARKET_MANAGE, ()),
]

ALL: tuple[Permission, ...] = tuple(CUSTOMER_ROUTES + CLOUD_CHAIN_ROUTES + BACK_OFFICE_ROUTES)
BY_NAME: dict[str, Permission] = {p.name: p for p in ALL}
assert len(BY_NAME) == len(ALL), "permission names must be unique"


def names(prefixes: str | tuple[str, ...], *, among: tuple[Permission, ...] = ALL) -> frozenset[str]:
    """All permission names under the given route prefixes (a prefix covers its actions and
    dotted children)."""
    wanted = (prefixes,) if isinstance(prefixes, str) else prefixes
    return frozenset(
        p.name for p in among
        if any(p.name == w or p.name.startswith((w + ".", w + ":")) for w in wanted)
    )


def exactly(*wanted: str) -> frozenset[str]:
    unknown = [w for w in wanted if w not in BY_NAME]
    if unknown:
        raise KeyError(f"unknown permissions: {unknown}")
    return frozenset(wanted)
