"""The request journal: what the sandbox got, with near misses for a mistyped path."""


def test_a_mistyped_path_is_a_404_whose_near_miss_the_journal_names(api, control):
    assert api.get("/v2/usr").status_code == 404

    journal = control.get("/requests", params={"status": "404"}).json()["requests"]
    miss = journal[0]
    assert miss["path"] == "/v2/usr"
    assert miss["near_misses"][0]["path"] == "/v2/user"
    assert "usr" in miss["near_misses"][0]["hint"]


def test_the_journal_shows_each_request_with_its_route_and_status(api, control):
    api.post("/v2/user", json={"client_user_id": "py-journal"}).raise_for_status()
    # Newest first; the journal spans resets (each entry has its sequence number, `since` pages).
    newest = control.get("/requests", params={"route": "users.create"}).json()["requests"][0]
    assert (newest["method"], newest["path"], newest["status"]) == ("POST", "/v2/user", 200)
    assert newest["team_id"] == control.get("/credentials").json()["teams"][0]["team_id"]
    # A bad body is a 422 whose answer the journal keeps.
    assert api.post("/v2/user", json={}).status_code == 422
    bad = control.get("/requests", params={"status": "4xx"}).json()["requests"][0]
    assert bad["status"] == 422 and "detail" in bad["response"]["body"]
