"""pytest fixtures that run health-sandbox for a Python test suite.

Copy this file (and sdk_retry.py if you want the retry helper) into your tests folder. The
sandbox is started once per test session on a free port and stopped at the end; the world is
reset before every test. Nothing here needs Node when the standalone binary is used.

A sandbox that is already running (a CI service container, a `docker run`): set
  HEALTH_SANDBOX_URL          its URL as your tests reach it, e.g. http://health-sandbox:4250
  HEALTH_SANDBOX_ADMIN_TOKEN  its admin token (needed off loopback: the control plane asks for it)
and nothing is started or stopped. Otherwise one is started; which, first found wins:
  HEALTH_SANDBOX_COMMAND   a whole command line, e.g. "node dist/cli.js" or "npx health-sandbox"
  HEALTH_SANDBOX_BIN       the path of the binary (`npm run build:binary` writes dist-bin/health-sandbox)
  dist-bin/health-sandbox  of this repository (examples/python/../../dist-bin)
  health-sandbox           on PATH (the binary, or npm's bin)
  npx health-sandbox       (needs Node)
Extra flags for every start: HEALTH_SANDBOX_ARGS (e.g. "--seed 7 --world empty").

The official Python SDK needs only its base URL:
    from vital.client import Vital
    client = Vital(api_key=team["api_keys"]["sandbox"], base_url=sandbox.url)
"""

from __future__ import annotations

import json
import os
import pathlib
import shlex
import shutil
import subprocess
import time
from dataclasses import dataclass
from typing import Any, Iterator

import httpx
import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]


def sandbox_command() -> list[str]:
    """The command that starts the sandbox (see the module docstring for the order)."""
    command = os.environ.get("HEALTH_SANDBOX_COMMAND")
    if command:
        return shlex.split(command)
    for candidate in (os.environ.get("HEALTH_SANDBOX_BIN"), REPO / "dist-bin" / "health-sandbox", shutil.which("health-sandbox")):
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return [str(candidate)]
    return ["npx", "--yes", "health-sandbox"]


@dataclass
class Sandbox:
    """A running sandbox: its `--json` start line, and httpx clients for its three surfaces."""

    process: subprocess.Popen[str] | None
    line: dict[str, Any]

    @property
    def url(self) -> str:
        return self.line["url"]

    @property
    def team(self) -> dict[str, Any]:
        """The first team (region us): team_id, api_keys.sandbox, api_keys.production."""
        return self.line["teams"][0]

    def api(self, api_key: str | None = None) -> httpx.Client:
        """The data API (what the Vital SDK calls), with a team's sandbox key."""
        key = api_key or self.team["api_keys"]["sandbox"]
        return httpx.Client(base_url=self.url, headers={"x-vital-api-key": key}, timeout=30)

    def management(self) -> httpx.Client:
        """The org management API, with the org's management key."""
        return httpx.Client(
            base_url=self.line["management_url"], headers={"x-management-key": self.line["management_key"]}, timeout=30
        )

    def receiver_url(self, name: str) -> str:
        """The URL of the built-in test receiver <name>, as the sandbox itself reaches it (point webhooks there)."""
        with self.control() as control:
            return control.get(f"/receiver/{name}").json()["url"]

    def control(self) -> httpx.Client:
        """The control plane (/_sandbox/*): reset, clock, receivers, faults, journals."""
        token = self.line.get("admin_token")
        headers = {"authorization": f"Bearer {token}"} if token else {}
        return httpx.Client(base_url=f"{self.url}/_sandbox", headers=headers, timeout=60)


def start_sandbox(extra: list[str] | None = None) -> Sandbox:
    """Starts the sandbox on a free port and waits for its one `--json` line (it is listening then)."""
    args = ["--port", "0", "--host", "127.0.0.1", "--json", "--clock", "manual", "--feed", "off"]
    args += shlex.split(os.environ.get("HEALTH_SANDBOX_ARGS", "")) + (extra or [])
    env = {**os.environ, "HEALTH_SANDBOX_PORT": ""}
    process = subprocess.Popen(sandbox_command() + args, stdout=subprocess.PIPE, text=True, env=env)
    assert process.stdout is not None
    first = process.stdout.readline()  # blocks until the line is printed, or the process ends
    if not first:
        code = process.wait()
        raise RuntimeError(f"health-sandbox exited ({code}) before its --json line: {sandbox_command() + args}")
    return Sandbox(process=process, line=json.loads(first))


def connect_sandbox(url: str, admin_token: str | None) -> Sandbox:
    """A sandbox started elsewhere: its credentials from GET /_sandbox/credentials, reached at `url`."""
    url = url.rstrip("/")
    headers = {"authorization": f"Bearer {admin_token}"} if admin_token else {}
    # A service container may still be starting when the tests do: a refused connection is tried
    # again for up to 30 s (the binary listens well under a second after its start).
    for attempt in range(150):
        try:
            credentials = httpx.get(f"{url}/_sandbox/credentials", headers=headers, timeout=30)
            break
        except httpx.ConnectError:
            if attempt == 149:
                raise
            time.sleep(0.2)
    credentials.raise_for_status()
    line = {**credentials.json(), "url": url, "management_url": f"{url}/management", "admin_token": admin_token}
    return Sandbox(process=None, line=line)


def stop_sandbox(sandbox: Sandbox) -> int:
    """SIGTERM: requests in flight finish, then it exits 0."""
    if sandbox.process is None:
        return 0
    sandbox.process.terminate()
    try:
        return sandbox.process.wait(timeout=30)
    finally:
        if sandbox.process.stdout:
            sandbox.process.stdout.close()


@pytest.fixture(scope="session")
def sandbox() -> Iterator[Sandbox]:
    url = os.environ.get("HEALTH_SANDBOX_URL")
    started = connect_sandbox(url, os.environ.get("HEALTH_SANDBOX_ADMIN_TOKEN")) if url else start_sandbox()
    try:
        yield started
    finally:
        assert stop_sandbox(started) == 0


@pytest.fixture(autouse=True)
def fresh_world(sandbox: Sandbox) -> None:
    """A fresh world before each test: the same seed, so the same org, teams and keys."""
    with sandbox.control() as control:
        control.post("/reset").raise_for_status()


@pytest.fixture
def api(sandbox: Sandbox) -> Iterator[httpx.Client]:
    with sandbox.api() as client:
        yield client


@pytest.fixture
def control(sandbox: Sandbox) -> Iterator[httpx.Client]:
    with sandbox.control() as client:
        yield client


@pytest.fixture
def management(sandbox: Sandbox) -> Iterator[httpx.Client]:
    with sandbox.management() as client:
        yield client
