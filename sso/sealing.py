"""The client secrets of organisations' identity providers, sealed at rest.

A secret is encrypted (Fernet: AES-128-CBC with an HMAC-SHA256 tag) under a key
derived from SECRET_KEY, so a copy of the database alone does not reveal it, and
the configuration page never shows it again. Rotating SECRET_KEY makes the
sealed secrets unreadable: `unseal` then raises SealError and the owner enters the
secret again.
"""

import base64
import hashlib

from cryptography.fernet import Fernet, InvalidToken
from django.conf import settings

_KEY_PURPOSE = b"hotpath.sso.client-secret:"


class SealError(Exception):
    """A sealed secret this server cannot open (SECRET_KEY changed since it was sealed)."""


def _fernet():
    digest = hashlib.sha256(_KEY_PURPOSE + settings.SECRET_KEY.encode()).digest()
    return Fernet(base64.urlsafe_b64encode(digest))


def seal(secret):
    """`secret` (str) encrypted, as ASCII text for a database column."""
    return _fernet().encrypt(secret.encode()).decode("ascii")


def unseal(sealed):
    """The secret `seal` produced `sealed` from; SealError when it cannot be opened."""
    try:
        return _fernet().decrypt(sealed.encode("ascii")).decode()
    except (InvalidToken, ValueError):
        raise SealError(
            "The client secret cannot be read (the server's SECRET_KEY changed): "
            "the organisation's owner must enter it again."
        ) from None
