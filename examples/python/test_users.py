"""Users over plain HTTP (the SDK's `client.user.create` / `get` / `get_all`)."""


def test_create_read_and_list_a_user(api):
    created = api.post("/v2/user", json={"client_user_id": "py-alice"})
    assert created.status_code == 200, created.text
    user_id = created.json()["user_id"]

    fetched = api.get(f"/v2/user/{user_id}")
    assert fetched.status_code == 200
    assert fetched.json()["client_user_id"] == "py-alice"

    listed = api.get("/v2/user", params={"limit": 100})
    assert user_id in [u["user_id"] for u in listed.json()["users"]]


def test_a_second_user_with_the_same_client_user_id_is_refused(api):
    assert api.post("/v2/user", json={"client_user_id": "py-bob"}).status_code == 200
    again = api.post("/v2/user", json={"client_user_id": "py-bob"})
    assert again.status_code == 400
    assert "detail" in again.json()


def test_reset_between_tests_gives_the_same_keys_and_a_fresh_world(sandbox, api, control):
    api.post("/v2/user", json={"client_user_id": "py-gone"}).raise_for_status()
    control.post("/reset").raise_for_status()
    users = api.get("/v2/user", params={"limit": 100}).json()["users"]
    assert "py-gone" not in [u["client_user_id"] for u in users]
    # The keys stay: they derive from the seed, which a plain reset keeps.
    assert control.get("/credentials").json()["teams"][0]["api_keys"]["sandbox"] == sandbox.team["api_keys"]["sandbox"]
