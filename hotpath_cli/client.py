"""The Hotpath API over HTTP: one method per endpoint the client uses, API errors as CliError."""

import requests

from .errors import CliError

TIMEOUT_S = 30
#: What the API answers with that the user fixes by logging in again.
TOKEN_CODES = {"not_authenticated", "token_invalid", "token_expired", "token_revoked", "account_inactive"}


class Api:
    def __init__(self, server, token):
        self.server = server.rstrip("/")
        self.session = requests.Session()
        self.session.headers.update({"Authorization": f"Bearer {token}", "Accept": "application/json"})

    def _request(self, method, path, **kwargs):
        url = f"{self.server}/api/v1/{path}"
        try:
            response = self.session.request(method, url, timeout=TIMEOUT_S, **kwargs)
        except requests.exceptions.InvalidURL:
            raise CliError(f"{self.server!r} is not a server address; use e.g. https://hotpath.example.org.") from None
        except requests.exceptions.MissingSchema:
            raise CliError(f"{self.server!r} has no scheme; use e.g. http://127.0.0.1:8000.") from None
        except requests.exceptions.RequestException as exc:
            raise CliError(
                f"Cannot reach {self.server}: {type(exc).__name__}. Is the address right and the server up?"
            ) from None
        try:
            body = response.json()
        except ValueError:
            raise CliError(
                f"{self.server} answered {response.status_code} without JSON: it does not look like a Hotpath server "
                "(no API at /api/v1/). Check the --server address."
            ) from None
        if response.status_code >= 400:
            raise self._error(response.status_code, body)
        return body

    def _error(self, status, body):
        code = body.get("code", "") if isinstance(body, dict) else ""
        message = body.get("message", "") if isinstance(body, dict) else ""
        if not code:
            return CliError(f"{self.server} answered {status} with no Hotpath error: it may not be a Hotpath server.")
        if code in TOKEN_CODES:
            return CliError(f"{message} (Run `hotpath login` with a new token.)")
        if status == 429:
            return CliError(f"The server refused for now: {message}")
        if status >= 500:
            return CliError(f"The server failed ({status}); try again later. {message}")
        return CliError(message or f"The server refused the request ({status}, {code}).")

    def get(self, path, **params):
        return self._request("GET", path, params={k: v for k, v in params.items() if v is not None})

    def post(self, path, body):
        return self._request("POST", path, json=body)

    def all_pages(self, path, **params):
        page, results = 1, []
        while True:
            body = self.get(path, page=page, **params)
            results.extend(body["results"])
            if not body.get("next"):
                return results
            page += 1
