"""A demo connection and its webhook, received by the sandbox's built-in receiver.

The built-in receiver (/_sandbox/receiver/<name>) records every delivery and checks its
signature; your own receiver would verify it as below (Svix / Standard Webhooks signing).
"""

import base64
import hashlib
import hmac


def sign(secret: str, msg_id: str, timestamp: str, body: str) -> str:
    key = base64.b64decode(secret.removeprefix("whsec_"))
    digest = hmac.new(key, f"{msg_id}.{timestamp}.{body}".encode(), hashlib.sha256).digest()
    return base64.b64encode(digest).decode()


def test_a_demo_connection_is_delivered_signed_to_the_receiver(sandbox, api, control, management):
    org, team = sandbox.line["org_id"], sandbox.team["team_id"]
    endpoint = management.post(
        f"/v1/org/{org}/team/{team}/sandbox/webhook",
        json={"url": sandbox.receiver_url("py-hooks")},
    )
    assert endpoint.status_code == 200, endpoint.text
    secret = management.get(f"/v1/org/{org}/team/{team}/sandbox/webhook/{endpoint.json()['id']}/secret").json()["key"]

    user_id = api.post("/v2/user", json={"client_user_id": "py-hooked"}).json()["user_id"]
    connected = api.post("/v2/link/connect/demo", json={"user_id": user_id, "provider": "fitbit"})
    assert connected.status_code == 200, connected.text
    # An advance of 0 s returns once the deliveries it finds in flight are done.
    control.post("/clock/advance", json={"seconds": 0}).raise_for_status()

    received = control.get("/receiver/py-hooks").json()["deliveries"]
    created = [d for d in received if d["event_type"] == "provider.connection.created"]
    assert len(created) == 1
    delivery = created[0]
    assert delivery["verified"] is True
    headers = delivery["headers"]
    expected = sign(secret, headers["svix-id"], headers["svix-timestamp"], delivery["body"])
    assert f"v1,{expected}" in headers["svix-signature"].split(" ")


def test_a_failing_receiver_is_retried_on_the_clock(sandbox, api, control, management):
    org, team = sandbox.line["org_id"], sandbox.team["team_id"]
    management.post(
        f"/v1/org/{org}/team/{team}/sandbox/webhook", json={"url": sandbox.receiver_url("py-flaky")}
    ).raise_for_status()
    # The receiver answers 500 once, then 200.
    control.put("/receiver/py-flaky", json={"status": 500, "times": 1}).raise_for_status()

    user_id = api.post("/v2/user", json={"client_user_id": "py-flaky"}).json()["user_id"]
    api.post("/v2/link/connect/demo", json={"user_id": user_id, "provider": "oura"}).raise_for_status()
    control.post("/clock/advance", json={"seconds": 0}).raise_for_status()
    first = control.get("/receiver/py-flaky").json()["deliveries"]
    assert [d["answered_status"] for d in first] == [500]

    # Svix retries after 5 s: the retry waits for the sandbox clock, not the wall clock.
    control.post("/clock/advance", json={"duration": "1m"}).raise_for_status()
    again = control.get("/receiver/py-flaky").json()["deliveries"]
    assert [d["answered_status"] for d in again] == [500, 200]
    assert again[0]["msg_id"] == again[1]["msg_id"]
