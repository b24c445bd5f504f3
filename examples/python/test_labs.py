"""A lab order placed over HTTP and moved by the sandbox clock (`POST /_sandbox/clock/advance`)."""

PATIENT = {
    "first_name": "Ada",
    "last_name": "Lovelace",
    "dob": "1985-12-09",
    "gender": "female",
    "phone_number": "+14155551234",
    "email": "ada@example.com",
}
ADDRESS = {
    "receiver_name": "Ada Lovelace",
    "first_line": "1 Main Street",
    "city": "Austin",
    "state": "TX",
    "zip": "78701",
    "country": "US",
}


def test_a_testkit_order_moves_when_the_clock_advances(api, control):
    tests = api.get("/v3/lab_tests").json()
    testkit = next(t for t in tests if t["method"] == "testkit" and not t["auto_generated"])
    user_id = api.post("/v2/user", json={"client_user_id": "py-labs"}).json()["user_id"]

    placed = api.post(
        "/v3/order",
        json={"user_id": user_id, "lab_test_id": testkit["id"], "patient_details": PATIENT, "patient_address": ADDRESS},
    )
    assert placed.status_code == 200, placed.text
    order = placed.json()["order"]
    assert order["status"] == "received"
    before = api.get(f"/v3/order/{order['id']}").json()

    control.post("/clock/advance", json={"duration": "3d"}).raise_for_status()

    after = api.get(f"/v3/order/{order['id']}").json()
    assert len(after["events"]) > len(before["events"])
    assert after["events"][-1]["status"] != before["events"][-1]["status"]
    # Every step is in the event journal, as the webhooks the real service would send.
    events = control.get("/events", params={"event_type": "labtest.order.updated"}).json()["events"]
    assert any(e["envelope"]["data"]["id"] == order["id"] for e in events)
