"""schemathesis drives every documented call with generated input, valid and invalid: no call may
answer 500, and every answer must match what /api/openapi.json documents for it.

The operations are driven one by one with Hypothesis rather than through schemathesis's pytest
plugin, whose lazy loader reads a private attribute that pytest 9 removed."""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis.checks import not_a_server_error
from schemathesis.core.parameters import ParameterLocation
from schemathesis.generation.modes import GenerationMode
from schemathesis.specs.openapi import checks as openapi_checks

from core.accounts.commands import LogIn
from entrypoints.demo_seed import DEMO_PASSWORD, seed

CHECKS = [
    not_a_server_error,
    openapi_checks.status_code_conformance,
    openapi_checks.content_type_conformance,
    openapi_checks.response_schema_conformance,
    openapi_checks.response_headers_conformance,
    openapi_checks.negative_data_rejection,
]
EXAMPLES = 40


@pytest.mark.slow
@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
def test_generated_calls_get_documented_answers_and_never_500(app, mode):
    seed(app.container)
    schema = schemathesis.openapi.from_wsgi("/api/openapi.json", app.flask)
    failures: list[str] = []
    for result in schema.get_all_operations():
        operation = result.ok()

        @settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                  suppress_health_check=list(HealthCheck))
        @given(case=operation.as_strategy(generation_mode=mode))
        def call(case):
            # A fresh token per case, so a generated logout cannot spoil the next call; made from
            # another address, so generated failed logins cannot lock the tester out.
            if case.meta is not None and case.meta.is_negative_at(ParameterLocation.HEADER):
                case.call_and_validate(checks=CHECKS)  # the case is about a missing or bad token
                return
            token = app.container.login()(LogIn("operator", DEMO_PASSWORD, client_address="10.99.0.1")).token
            case.call_and_validate(headers={"Authorization": f"Bearer {token}"}, checks=CHECKS)

        try:
            call()
        except Unsatisfiable:
            assert mode is GenerationMode.NEGATIVE  # a call without parameters has no invalid input
        except Exception as failure:  # collect every operation's first failure, then report all
            failures.append(f"{operation.label}: {failure}")
    assert not failures, "\n\n".join(failures)
