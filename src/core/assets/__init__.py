"""Assets (issue 17, /asset/list and /asset/detail/{id}): a thing an account keeps cold (a vaccine
fridge, a cold room, a truck's box) with its particulars and at most five devices watching it.

An asset is enabled or disabled, "which sets all its devices and alarm settings alike" (spec 001
section 4): disabling one disables its devices and switches their alarm rules off, remembering
which were on; enabling it turns those back on (use_cases.SetAssetState says why).

An asset is its maker's own or one of its organizations'; who reads and who changes it is
core.shared.ownership's rule, the same as for projects (an organization's members read its
assets, those who change its devices change them), and a device goes only into an asset of its
own owner's kind.

Public to other contexts: `model` and `ports`.
"""

__all__ = ["model", "ports"]
