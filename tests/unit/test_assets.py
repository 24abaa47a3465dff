"""Assets on fakes (issue 17): the rules of each field (name required up to 100; type, number,
brand, model and volume up to 50; remark up to 200; custom pairs named, distinct, at most 20; no
emoji), an account's own asset is its alone, an organization's read by its members and changed
by its administrators, a device only in an asset of its own owner's kind, binding is all or none
for devices the caller may change, in one asset at most and five per asset, and the state holds
and releases the devices' alarm rules, remembering which were on."""

from __future__ import annotations

from dataclasses import replace

import pytest

from core.assets.errors import DeviceInOtherAsset, DeviceInYourAsset, DeviceLimit
from core.assets.model import (
    ATTRIBUTE_KEY,
    ATTRIBUTE_TWICE,
    ATTRIBUTE_VALUE,
    ATTRIBUTES_COUNT,
    CHARACTERS,
    FIELD_LENGTH,
    NAME_LENGTH,
    NAME_REQUIRED,
    NOT_YOUR_ORGANIZATION,
    ORGANIZATION_DEVICE,
    PERSONAL_DEVICE,
    READ_ONLY_ASSET,
    REMARK_LENGTH,
    Asset,
    Attribute,
    Membership,
    attributes_problem,
    field_problem,
    name_problem,
    remark_problem,
    room_for,
)
from core.assets.use_cases import (
    AssetInput,
    BindDevices,
    CreateAsset,
    DeleteAsset,
    GetAsset,
    ListAssets,
    SetAssetState,
    UnbindDevices,
    UpdateAsset,
)
from core.devices.access import READ_ONLY
from core.shared.errors import Forbidden, InvalidInput, NotFound
from core.shared.paging import Page, PageRequest
from tests.support.clock import MutableClock
from tests.unit.test_device_registry import ADMIN, MEMBER, NOW, OWNER, STRANGER, _add, _owned_device, _uow


class FakeAssetRepository:
    def __init__(self) -> None:
        self.rows: dict[int, Asset] = {}
        self.device_asset: dict[int, int | None] = {}
        self.rules: dict[int, bool] = {}  # device id: its one alarm rule on or off
        self.held: set[int] = set()  # devices whose rule a disabled asset switched off
        self.disabled: set[int] = set()  # devices disabled

    def add(self, asset):
        asset_id = len(self.rows) + 1
        self.rows[asset_id] = replace(asset, id=asset_id)
        return asset_id

    def get(self, account_id, asset_id):
        a = self.rows.get(asset_id)
        return None if a is None else replace(a, device_count=len(self.bound(asset_id)))

    def update(self, asset):
        self.rows[asset.id] = asset

    def delete(self, asset_id):
        for d in self.bound(asset_id):
            self.device_asset[d] = None
        del self.rows[asset_id]

    def page(self, account_id, organization_ids, keyword, request):
        found = [self.get(account_id, i) for i, a in self.rows.items()
                 if (a.organization_id in organization_ids
                     or (a.organization_id is None and a.owner_account_id == account_id))
                 and (not keyword or keyword.lower() in a.name.lower() or keyword.lower() in (a.number or "").lower())]
        return Page(request.start, request.page_size, len(found), found)

    def bound(self, asset_id):
        return sorted(d for d, a in self.device_asset.items() if a == asset_id)

    def memberships(self, device_ids):
        return [Membership(d, f"Device {d}", a, self.rows[a].name, self.rows[a].owner_account_id,
                           self.rows[a].organization_id)
                for d in device_ids if (a := self.device_asset.get(d)) is not None]

    def bind(self, asset_id, device_ids):
        for d in device_ids:
            self.device_asset[d] = asset_id

    def unbind(self, device_ids):
        for d in device_ids:
            self.device_asset[d] = None

    def set_enabled(self, asset_id, enabled):
        self.rows[asset_id] = replace(self.rows[asset_id], enabled=enabled)

    def hold(self, device_ids):
        for d in device_ids:
            self.disabled.add(d)
            if self.rules.get(d):
                self.rules[d], _ = False, self.held.add(d)

    def release(self, device_ids):
        for d in device_ids:
            self.disabled.discard(d)
            if d in self.held:
                self.rules[d], _ = True, self.held.discard(d)


def _world():
    uow = _uow()
    uow.assets = FakeAssetRepository()
    return uow


def _create(uow, account=OWNER, name="Vaccine fridge A", **fields):
    return CreateAsset(uow, MutableClock(NOW))(account, AssetInput(name, **fields))


def _devices(uow, n):
    """n devices of OWNER's, each with an alarm rule that is on."""
    ids = [_add(uow, guid=f"RCW360A000{i:04d}").device.id for i in range(n)]
    uow.assets.rules.update(dict.fromkeys(ids, True))
    return ids


@pytest.mark.parametrize(("name", "problem"), [
    ("A", None), ("x" * 100, None), ("Kühlschrank 3", None), ("疫苗冰箱 A", None), ("Холодильник №2", None),
    ("2-8 °C ℃ ©", None),
    ("", NAME_REQUIRED), ("x" * 101, NAME_LENGTH), ("Ice 🧊", CHARACTERS), ("a\u200db", CHARACTERS),
    ("tab\tx", CHARACTERS), ("a\ud800b", CHARACTERS), ("heart \u2764\ufe0f", CHARACTERS),
])
def test_the_name_rules(name, problem):
    assert name_problem(name) == problem


@pytest.mark.parametrize(("value", "problem"), [
    ("", None), ("x" * 50, None), ("280 L", None), ("x" * 51, FIELD_LENGTH), ("1\n2", CHARACTERS),
])
def test_the_short_fields_rules(value, problem):
    assert field_problem(value) == problem


def test_the_remark_may_hold_lines_up_to_200():
    assert remark_problem("first line\nsecond") is None
    assert remark_problem("r" * 200) is None
    assert remark_problem("r" * 201) == REMARK_LENGTH
    assert remark_problem("🔥") == CHARACTERS


@pytest.mark.parametrize(("pairs", "problem"), [
    ([], None), ([("Door", "north"), ("Shelves", "")], None), ([("k" * 50, "v" * 200)], None),
    ([(f"k{i}", "v") for i in range(20)], None), ([(f"k{i}", "v") for i in range(21)], ATTRIBUTES_COUNT),
    ([("", "v")], ATTRIBUTE_KEY), ([("k" * 51, "v")], ATTRIBUTE_KEY), ([("k", "v" * 201)], ATTRIBUTE_VALUE),
    ([("Door", "1"), ("DOOR", "2")], ATTRIBUTE_TWICE), ([("k", "🧊")], CHARACTERS),
])
def test_the_custom_attributes_rules(pairs, problem):
    assert attributes_problem([Attribute(k, v) for k, v in pairs]) == problem


def test_five_devices_at_most():
    assert room_for(0, 5) and room_for(4, 1) and not room_for(5, 1) and not room_for(3, 3)


def test_input_is_trimmed_and_every_wrong_field_is_named_at_once():
    uow = _world()
    made = _create(uow, name="  Fridge  ", asset_type=" ", number=" N-1 ", remark="",
                   attributes=(Attribute(" Door ", " north "),))
    assert (made.name, made.asset_type, made.number, made.remark, made.attributes, made.enabled) == (
        "Fridge", None, "N-1", None, (Attribute("Door", "north"),), True)
    with pytest.raises(InvalidInput) as refused:
        _create(uow, name=" ", brand="b" * 51, remark="r" * 201, attributes=(Attribute("a", "1"), Attribute("A", "2")))
    assert refused.value.problems == {"assetName": NAME_REQUIRED, "brand": FIELD_LENGTH, "remark": REMARK_LENGTH,
                                      "customs": ATTRIBUTE_TWICE}
    assert len(uow.assets.rows) == 1


def test_an_asset_is_its_owner_s_alone():
    uow = _world()
    made = _create(uow)
    for call in (lambda a: GetAsset(uow)(a, made.id), lambda a: DeleteAsset(uow)(a, made.id),
                 lambda a: UpdateAsset(uow)(a, made.id, AssetInput("Mine")),
                 lambda a: SetAssetState(uow)(a, made.id, False), lambda a: BindDevices(uow)(a, made.id, [1]),
                 lambda a: UnbindDevices(uow)(a, made.id, [1])):
        for account in (MEMBER, ADMIN, STRANGER):
            with pytest.raises(NotFound):
                call(account)
    assert ListAssets(uow)(STRANGER, None, PageRequest()).total_count == 0
    assert uow.assets.rows[made.id].name == "Vaccine fridge A" and uow.assets.rows[made.id].enabled


def test_only_devices_the_caller_may_change_are_bound_all_or_none():
    uow = _world()
    device = _owned_device(uow)  # OWNER's, ADMIN administers its organization, MEMBER only reads it
    mine, members, admins = _create(uow), _create(uow, account=MEMBER, name="M"), _create(uow, account=ADMIN, name="A")
    with pytest.raises(Forbidden) as refused:
        BindDevices(uow)(MEMBER, members.id, [device.id])
    assert refused.value.message == READ_ONLY
    with pytest.raises(NotFound):
        BindDevices(uow)(STRANGER, _create(uow, account=STRANGER, name="S").id, [device.id])
    with pytest.raises(NotFound):  # one unknown device: the other is not bound either
        BindDevices(uow)(OWNER, mine.id, [device.id, 999])
    assert uow.assets.device_asset == {}
    assert BindDevices(uow)(ADMIN, admins.id, [device.id]).device_count == 1  # an administrator may
    with pytest.raises(DeviceInOtherAsset) as elsewhere:  # OWNER sees the device, not ADMIN's asset
        BindDevices(uow)(OWNER, mine.id, [device.id])
    assert elsewhere.value.params == {"device": f"Device {device.id}"}


def test_a_device_is_in_one_asset_and_an_asset_holds_five():
    uow = _world()
    ids = _devices(uow, 6)
    first, second = _create(uow), _create(uow, name="Second")
    assert BindDevices(uow)(OWNER, first.id, ids[:3] + ids[:1]).device_count == 3
    with pytest.raises(DeviceInYourAsset) as taken:
        BindDevices(uow)(OWNER, second.id, [ids[5], ids[0]])
    assert taken.value.params == {"device": f"Device {ids[0]}", "name": "Vaccine fridge A"}
    assert BindDevices(uow)(OWNER, first.id, ids[1:5]).device_count == 5  # the bound ones count once
    with pytest.raises(DeviceLimit):
        BindDevices(uow)(OWNER, first.id, [ids[5]])
    assert uow.assets.bound(first.id) == ids[:5] and uow.assets.device_asset.get(ids[5]) is None
    with pytest.raises(NotFound):  # not in this asset
        UnbindDevices(uow)(OWNER, second.id, [ids[0]])
    assert UnbindDevices(uow)(OWNER, first.id, [ids[0]]).device_count == 4
    assert BindDevices(uow)(OWNER, second.id, [ids[0]]).device_count == 1


def test_disabling_holds_the_rules_that_were_on_and_enabling_releases_only_those():
    uow = _world()
    a, b, c = _devices(uow, 3)
    uow.assets.rules[b] = False  # switched off by its user
    asset = _create(uow)
    BindDevices(uow)(OWNER, asset.id, [a, b])
    commits = uow.commits
    off = SetAssetState(uow)(OWNER, asset.id, False)
    assert not off.enabled and uow.commits == commits + 1
    assert uow.assets.rules == {a: False, b: False, c: True} and uow.assets.disabled == {a, b}
    assert SetAssetState(uow)(OWNER, asset.id, False).enabled is False and uow.commits == commits + 1  # no-op
    BindDevices(uow)(OWNER, asset.id, [c])  # bound while disabled: held at once
    assert uow.assets.rules[c] is False and c in uow.assets.disabled
    UnbindDevices(uow)(OWNER, asset.id, [c])  # out of it: as it was
    assert uow.assets.rules[c] is True and c not in uow.assets.disabled
    assert SetAssetState(uow)(OWNER, asset.id, True).enabled
    assert uow.assets.rules == {a: True, b: False, c: True} and uow.assets.disabled == set()


def test_deleting_a_disabled_asset_releases_its_devices():
    uow = _world()
    [a] = _devices(uow, 1)
    asset = _create(uow)
    BindDevices(uow)(OWNER, asset.id, [a])
    SetAssetState(uow)(OWNER, asset.id, False)
    assert DeleteAsset(uow)(OWNER, asset.id) == 1
    assert uow.assets.rules[a] is True and uow.assets.disabled == set() and uow.assets.device_asset[a] is None


ACME = 50  # OWNER created it, ADMIN administers it, MEMBER only reads it


def _organization_world():
    uow = _world()
    uow.device_registry.memberships = {OWNER: {ACME: True}, ADMIN: {ACME: True}, MEMBER: {ACME: False}}
    return uow


def _acme_device(uow, guid="RCW360A0000009"):
    """A device of ACME's: ADMIN changes it, MEMBER reads it."""
    device = _add(uow, guid=guid).device
    registry = uow.device_registry
    registry.devices[device.id] = replace(registry.devices[device.id], organization_id=ACME)
    registry.visible_to[device.id] |= {MEMBER, ADMIN}
    registry.writers[device.id].add(ADMIN)
    return device


def test_an_organization_s_asset_is_read_by_its_members_and_changed_by_its_administrators():
    uow = _organization_world()
    device = _acme_device(uow)
    ours = _create(uow, account=ADMIN, organization_id=ACME)
    assert (ours.organization_id, ours.changeable) == (ACME, True)
    BindDevices(uow)(ADMIN, ours.id, [device.id])
    assert GetAsset(uow)(MEMBER, ours.id).changeable is False
    listed = ListAssets(uow)(MEMBER, None, PageRequest()).items
    assert [(a.name, a.changeable) for a in listed] == [("Vaccine fridge A", False)]
    assert ListAssets(uow)(OWNER, None, PageRequest()).items[0].changeable is True
    for call in (lambda: UpdateAsset(uow)(MEMBER, ours.id, AssetInput("Mine")),
                 lambda: DeleteAsset(uow)(MEMBER, ours.id), lambda: SetAssetState(uow)(MEMBER, ours.id, False),
                 lambda: BindDevices(uow)(MEMBER, ours.id, [device.id]),
                 lambda: UnbindDevices(uow)(MEMBER, ours.id, [device.id])):
        with pytest.raises(Forbidden) as refused:
            call()
        assert refused.value.message == READ_ONLY_ASSET
    for call in (lambda: GetAsset(uow)(STRANGER, ours.id), lambda: SetAssetState(uow)(STRANGER, ours.id, False)):
        with pytest.raises(NotFound):
            call()
    assert ListAssets(uow)(STRANGER, None, PageRequest()).total_count == 0
    assert uow.assets.rows[ours.id].enabled and uow.assets.bound(ours.id) == [device.id]  # nothing changed
    assert SetAssetState(uow)(OWNER, ours.id, False).enabled is False  # the creator, while they change devices
    uow.device_registry.memberships[ADMIN] = {}  # removed from the organization: at once
    with pytest.raises(NotFound):
        UpdateAsset(uow)(ADMIN, ours.id, AssetInput("Gone"))
    assert UpdateAsset(uow)(OWNER, ours.id, AssetInput("Renamed")).name == "Renamed"


def test_only_who_changes_an_organization_s_devices_makes_its_assets():
    uow = _organization_world()
    for account in (MEMBER, STRANGER):
        with pytest.raises(InvalidInput) as refused:
            _create(uow, account=account, organization_id=ACME)
        assert refused.value.problems == {"organizationId": NOT_YOUR_ORGANIZATION}
    with pytest.raises(InvalidInput):  # an organization nobody here is in
        _create(uow, organization_id=99)
    assert uow.assets.rows == {}
    assert _create(uow, organization_id=ACME).organization_id == ACME


def test_a_device_goes_only_into_an_asset_of_its_own_owner_s_kind():
    uow = _organization_world()
    device, personal = _acme_device(uow), _add(uow, guid="RCW360A0000002").device
    ours, mine = _create(uow, organization_id=ACME), _create(uow, name="Mine")
    for ids, asset, problem in (([device.id], mine, ORGANIZATION_DEVICE), ([personal.id], ours, PERSONAL_DEVICE),
                                ([device.id, personal.id], ours, PERSONAL_DEVICE)):
        with pytest.raises(InvalidInput) as refused:
            BindDevices(uow)(OWNER, asset.id, ids)
        assert refused.value.problems == {"deviceIds": problem}
    assert uow.assets.device_asset == {}  # all or none
    assert BindDevices(uow)(ADMIN, ours.id, [device.id]).device_count == 1
    assert BindDevices(uow)(OWNER, mine.id, [personal.id]).device_count == 1
    other = _create(uow, account=ADMIN, name="Second", organization_id=ACME)
    with pytest.raises(DeviceInYourAsset) as taken:  # the organization's asset, which ADMIN reads, is named
        BindDevices(uow)(ADMIN, other.id, [device.id])
    assert taken.value.params == {"device": f"Device {device.id}", "name": "Vaccine fridge A"}
