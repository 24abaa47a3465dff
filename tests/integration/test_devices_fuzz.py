"""The contract fuzzing of test_openapi_fuzz.py signs in as the operator, whom most device calls
refuse (403) before they do anything. Here a customer who owns devices drives every device
registry call with generated input: never a 500, every answer as documented."""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis.core.parameters import ParameterLocation
from schemathesis.generation.modes import GenerationMode

from core.accounts.commands import LogIn
from entrypoints.demo_seed import DEMO_PASSWORD
from tests.integration.test_openapi_fuzz import CHECKS, EXAMPLES
from tests.support.demo_copy import seeded

PATHS = ("/api/device/Device/", "/api/device/DeviceType/")


@pytest.mark.slow
@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
def test_a_device_owner_s_generated_calls_get_documented_answers_and_never_500(app, mode):
    seeded(app)
    schema = schemathesis.openapi.from_wsgi("/api/openapi.json", app.flask)
    failures: list[str] = []
    for result in schema.get_all_operations():
        operation = result.ok()
        if not operation.path.startswith(PATHS):
            continue

        @settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                  suppress_health_check=list(HealthCheck))
        @given(case=operation.as_strategy(generation_mode=mode))
        def call(case):
            if case.meta is not None and case.meta.is_negative_at(ParameterLocation.HEADER):
                case.call_and_validate(checks=CHECKS)
                return
            token = app.container.login()(LogIn("alice", DEMO_PASSWORD, client_address="10.99.0.3")).token
            case.call_and_validate(headers={"Authorization": f"Bearer {token}"}, checks=CHECKS)

        try:
            call()
        except Unsatisfiable:
            assert mode is GenerationMode.NEGATIVE
        except Exception as failure:
            failures.append(f"{operation.label}: {failure}")
    assert not failures, "\n\n".join(failures)
