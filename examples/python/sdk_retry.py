"""The retry rule of the official Python SDK (vital, src/vital/core/http_client.py), for plain httpx.

The SDK retries 408, 409, 429 and 5xx answers `max_retries` times (0 unless the request's
options say `{"max_retries": 2}`), waiting what `Retry-After` says (up to 30 s) or 0.5 s, 1 s,
2 s... (up to 10 s). The SDK jitters that backoff; this copy does not, so tests can check it.
`sleep` is a parameter: tests pass one that records the waits instead of sleeping.
"""

from __future__ import annotations

import time
from typing import Any, Callable

import httpx

RETRYABLE_4XX = {408, 409, 429}


def retry_delay(response: httpx.Response, retries: int) -> float:
    header = response.headers.get("retry-after", "").strip()
    if header.isdigit() and float(header) <= 30:
        return float(header)
    return min(0.5 * 2**retries, 10.0)


def send_with_retries(
    client: httpx.Client,
    method: str,
    url: str,
    *,
    max_retries: int = 2,
    sleep: Callable[[float], Any] = time.sleep,
    **kwargs: Any,
) -> httpx.Response:
    retries = 0
    while True:
        response = client.request(method, url, **kwargs)
        retryable = response.status_code >= 500 or response.status_code in RETRYABLE_4XX
        if not retryable or retries >= max_retries:
            return response
        sleep(retry_delay(response, retries))
        retries += 1
