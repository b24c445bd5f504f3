"""The official Python SDK (`vital`) against the sandbox, with only its base URL changed.

Every method of the SDK's own reference.md is run with its usage example (placeholders replaced by
the seeded world's ids and dates; the client built as `Vital(api_key=..., base_url=<sandbox>)`).
Each call must return what the SDK parsed, or raise its typed `ApiError` with a 4xx JSON answer
carrying `detail` whose status the route documents (the sandbox's /openapi.json); a pydantic
ValidationError or any other exception (a parse failure) fails.
A method whose request the sandbox has no route for (404, no route in the request journal) is
skipped with its method and path. The SDK is not vendored (no licence): set VITAL_PYTHON_SRC to a
checkout's `src` (docs/other-languages.md); without it this module is skipped.
"""

from __future__ import annotations

import datetime
from collections import Counter
from typing import Any

import httpx
import pydantic
import pytest
from sdk_reference import find_checkout, import_sdk, run_usage, sdk_methods

CHECKOUT = find_checkout()
if isinstance(CHECKOUT, str):
    pytest.skip(f"official Python SDK not checked: {CHECKOUT}", allow_module_level=True)
vital = import_sdk(CHECKOUT)
from vital.core.api_error import ApiError  # noqa: E402 (after the SDK's path is known)

METHODS = sdk_methods(CHECKOUT.reference)
# Two days holding data of every kind the world has (its clock starts 2026-01-05T09:00Z).
WINDOW = {"start_date": "2026-01-02", "end_date": "2026-01-04"}
PATIENT = {
    "first_name": "Ada",
    "last_name": "Lovelace",
    "dob": "1985-12-09",
    "gender": "female",
    "phone_number": "+14155551234",
    "email": "ada@example.com",
}
ADDRESS = {"receiver_name": "Ada Lovelace", "first_line": "1 Main Street", "city": "Austin", "state": "TX", "zip": "78701", "country": "US"}
# Required arguments a reference.md example leaves out (the example alone raises TypeError).
MISSING = {"lab_report.parser_create_job": {"file": "('report.pdf', b'%PDF-1.4\\n%%EOF\\n', 'application/pdf')"}}
OUTCOMES: Counter[str] = Counter()
API_ERRORS: list[str] = []


class _Summary:
    """A plugin printing, after pytest's own summary, how many methods parsed, were refused with a
    typed error, are not served (a hook: output of tests and fixtures is captured)."""

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if not OUTCOMES:
            return
        write = terminalreporter.write_line
        write(
            f"[sdk-contract] vital {CHECKOUT.version}: {len(METHODS)} methods in reference.md; "
            f"{OUTCOMES['parsed'] + OUTCOMES['api_error']} served and called: {OUTCOMES['parsed']} parsed a success answer, "
            f"{OUTCOMES['api_error']} a typed ApiError (4xx: example arguments the world does not satisfy); "
            f"{OUTCOMES['not_served']} not served (skipped)"
        )
        for line in API_ERRORS:
            write(f"[sdk-contract]   ApiError {line}")


@pytest.fixture(scope="module", autouse=True)
def summary(request: pytest.FixtureRequest) -> None:
    if not request.config.pluginmanager.has_plugin("sdk-contract-summary"):
        request.config.pluginmanager.register(_Summary(), "sdk-contract-summary")


@pytest.fixture(scope="module")
def documented(sandbox: Any) -> dict[str, set[int]]:
    """The statuses each route documents (the sandbox's own OpenAPI at /openapi.json, by route id)."""
    paths = httpx.get(f"{sandbox.url}/openapi.json", timeout=30).json()["paths"]
    return {op["operationId"]: {int(s) for s in op["responses"]} for item in paths.values() for op in item.values()}


def world_values(api: httpx.Client, sandbox: Any) -> dict[str, str]:
    """The seeded world's ids for the examples' placeholders (the world is fresh for every test)."""
    user = api.get("/v2/user", params={"limit": 1}).json()["users"][0]
    user_id = user["user_id"]
    tests = api.get("/v3/lab_tests").json()
    walk_in = next(t for t in tests if t["method"] == "walk_in_test" and not t["auto_generated"])
    placed = api.post(
        "/v3/order", json={"user_id": user_id, "lab_test_id": walk_in["id"], "patient_details": PATIENT, "patient_address": ADDRESS}
    )
    placed.raise_for_status()
    values = {
        "user_id": user_id,
        "client_user_id": user["client_user_id"],
        "order_id": placed.json()["order"]["id"],
        "lab_test_id": walk_in["id"],
        "team_id": sandbox.team["team_id"],
        **WINDOW,
    }
    found = {
        "workout_id": api.get(f"/v2/summary/workouts/{user_id}", params={"start_date": "2026-01-01"}).json().get("workouts"),
        "sleep_id": api.get(f"/v2/summary/sleep/{user_id}", params={"start_date": "2026-01-01"}).json().get("sleep"),
        "device_id": api.get(f"/v2/user/{user_id}/device").json(),
    }
    values.update({key: items[0]["id"] for key, items in found.items() if isinstance(items, list) and items})
    return values


def completed_order(api: httpx.Client) -> str:
    """A seeded order with results (the results methods read it; the others the new walk-in order)."""
    orders = api.get("/v3/orders", params={"size": 50}).json()["orders"]
    return next(o["id"] for o in orders if o["status"] == "completed")


def last_request(control: httpx.Client) -> dict[str, Any] | None:
    """The newest entry of the sandbox's request journal (data API requests only)."""
    requests = control.get("/requests", params={"limit": 1}).json()["requests"]
    return requests[0] if requests else None


@pytest.mark.parametrize("method", METHODS, ids=[m.name for m in METHODS])
def test_the_sdk_parses_what_the_sandbox_answers(method, sandbox, api, control, documented):
    values = world_values(api, sandbox)
    if method.name.startswith("lab_tests.get_result_"):
        values["order_id"] = completed_order(api)
    before = last_request(control)
    api_key = sandbox.team["api_keys"]["sandbox"]
    try:
        result = run_usage(method.usage, values, api_key, sandbox.url, MISSING.get(method.name))
        error: ApiError | None = None
    except ApiError as raised:
        result, error = None, raised
    sent = last_request(control)
    assert sent is not None and (before is None or sent["seq"] > before["seq"]), f"{method.name} sent no request"
    endpoint = f"{sent['method']} {sent['path']}"
    if sent["route_id"] is None:
        OUTCOMES["not_served"] += 1
        pytest.skip(f"not served by the sandbox: {endpoint}")
    if error is None:
        OUTCOMES["parsed"] += 1
        assert isinstance(result, (pydantic.BaseModel, list, dict, str, bytes)), f"{endpoint}: {type(result)}"
        assert 200 <= sent["status"] < 300, f"{endpoint}: {sent['status']}"
        return
    body = error.body.dict() if hasattr(error.body, "dict") else error.body
    assert isinstance(error.status_code, int) and 400 <= error.status_code < 500, f"{endpoint}: {error}"
    assert error.status_code in documented[sent["route_id"]], f"{endpoint}: {error.status_code} is not a documented answer"
    assert isinstance(body, dict) and "detail" in body, f"{endpoint}: a {error.status_code} without a JSON detail: {body!r}"
    OUTCOMES["api_error"] += 1
    API_ERRORS.append(f"{method.name} ({endpoint}): {error.status_code}")


def test_a_wrong_answer_fails_the_parse(sandbox, api, control):
    """The check can fail: a 200 whose user lacks its required fields is a pydantic error, not an ApiError."""
    user_get = next(m for m in METHODS if m.name == "user.get")
    fault = {"match": {"route": "users.get"}, "action": {"status": 200, "body": {"user_id": 5}}, "times": 1}
    control.post("/faults", json=fault).raise_for_status()
    with pytest.raises(pydantic.ValidationError):
        run_usage(user_get.usage, world_values(api, sandbox), sandbox.team["api_keys"]["sandbox"], sandbox.url)


def utc(moment: datetime.datetime) -> bool:
    return moment.tzinfo is not None and moment.utcoffset() == datetime.timedelta(0)


def test_data_timestamps_parse_as_utc_datetimes(sandbox, api):
    """Data timestamps are UTC written "+00:00" (the docs' timestamps and time zones page; Python
    3.10's datetime.fromisoformat refuses "Z"), and the SDK's datetimes are aware with offset 0."""
    values = world_values(api, sandbox)
    client = vital.Vital(api_key=sandbox.team["api_keys"]["sandbox"], base_url=sandbox.url)
    sleeps = client.sleep.get(user_id=values["user_id"], **WINDOW).sleep
    assert sleeps, "the first user has sleep in the window"
    assert all(utc(s.bedtime_start) and utc(s.bedtime_stop) for s in sleeps), [s.bedtime_start for s in sleeps]
    points = client.vitals.heartrate(user_id=values["user_id"], **WINDOW)
    assert points, "the first user has heart rate in the window"
    assert all(utc(p.timestamp) for p in points), [p.timestamp for p in points[:3]]

    raw = api.get(f"/v2/summary/sleep/{values['user_id']}", params=WINDOW).json()["sleep"][0]["bedtime_start"]
    assert raw.endswith("+00:00") and utc(datetime.datetime.fromisoformat(raw)), raw


def test_the_guides_example(sandbox):
    """docs/other-languages.md's SDK example, as written there."""
    from vital.client import Vital

    client = Vital(api_key=sandbox.team["api_keys"]["sandbox"], base_url=sandbox.url)
    user = client.user.create(client_user_id="alice")
    assert client.user.get(user.user_id).client_user_id == "alice"
