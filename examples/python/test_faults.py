"""An HTTP fault (429 with Retry-After) and the retry the official SDK does."""

from sdk_retry import send_with_retries


def test_two_rate_limits_then_the_user(api, control):
    user_id = api.post("/v2/user", json={"client_user_id": "py-limited"}).json()["user_id"]
    fault = control.post(
        "/faults",
        json={"match": {"route": "users.get"}, "action": {"status": 429, "headers": {"retry-after": "1"}}, "times": 2},
    )
    assert fault.status_code == 200, fault.text

    waits: list[float] = []
    answer = send_with_retries(api, "GET", f"/v2/user/{user_id}", max_retries=2, sleep=waits.append)
    assert answer.status_code == 200
    assert answer.json()["user_id"] == user_id
    assert waits == [1.0, 1.0]  # what Retry-After said, twice

    # After its two faulted answers the rule retired itself.
    assert fault.json()["id"] not in [r["id"] for r in control.get("/faults").json()["faults"]]


def test_without_retries_the_fault_is_what_the_caller_sees(api, control):
    control.post("/faults", json={"match": {"route": "users.list"}, "action": {"status": 503}, "times": 3}).raise_for_status()
    waits: list[float] = []
    answer = send_with_retries(api, "GET", "/v2/user", max_retries=2, sleep=waits.append)
    assert answer.status_code == 503
    assert "detail" in answer.json()
    assert waits == [0.5, 1.0]  # no Retry-After: the SDK's backoff
