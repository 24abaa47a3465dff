"""FDA 21 CFR Part 11 (issue 22): the calls under /api/device/FdaRecord/... on one blueprint, `blp`.

Each part keeps its calls in a views module of its own that attaches them to `blp` (trail_views.py:
the audit trail); the app registers `blp` and imports every such module (entrypoints/api/app.py)."""

from __future__ import annotations

from entrypoints.api.framework import ApiBlueprint

blp = ApiBlueprint("fda", __name__, description="FDA 21 CFR Part 11: FDA mode, the audit trail, electronic "
                                                "signatures and endorsements")
