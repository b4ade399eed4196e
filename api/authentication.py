"""`Authorization: Bearer hp_…` for scripts and the `hotpath` client; the browser
keeps its session (DRF's SessionAuthentication, with CSRF, sits beside this). The team
API (/api/v1/team/) takes organisation tokens, `Bearer hpo_…`, and nothing else."""

from django.contrib.auth.models import AnonymousUser
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions

from teams.services import org_tokens

from . import tokens


class TokenFailed(exceptions.AuthenticationFailed):
    """401 with a code that says what is wrong with the token."""

    def __init__(self, code, message):
        super().__init__(detail=message, code=code)


def bearer_token(request):
    """The token of an `Authorization: Bearer <token>` header; None without such a header
    (another scheme may take the request); TokenFailed for a malformed one."""
    header = authentication.get_authorization_header(request).split()
    if not header or header[0].lower() != b"bearer":
        return None
    if len(header) != 2:
        raise TokenFailed("token_invalid", "The Authorization header must be 'Bearer <token>'.")
    try:
        return header[1].decode("ascii")
    except UnicodeDecodeError:
        raise TokenFailed("token_invalid", "That token is not one Hotpath issued.") from None


class PersonalAccessTokenAuthentication(authentication.BaseAuthentication):
    keyword = "Bearer"

    def authenticate(self, request):
        presented = bearer_token(request)
        if presented is None:
            return None
        row = tokens.find_token(presented)
        if row is None:
            raise TokenFailed("token_invalid", "That token is not one Hotpath issued.")
        if row.is_revoked:
            raise TokenFailed("token_revoked", "That token was revoked. Make a new one on your profile page.")
        if row.is_expired:
            raise TokenFailed("token_expired", "That token has expired. Make a new one on your profile page.")
        if not row.user.is_active:
            raise TokenFailed("account_inactive", "The account behind that token is closed.")
        tokens.mark_used(row)
        return row.user, row

    def authenticate_header(self, request):
        return f'{self.keyword} realm="api"'


class PersonalAccessTokenScheme(OpenApiAuthenticationExtension):
    target_class = PersonalAccessTokenAuthentication
    name = "personalAccessToken"

    def get_security_definition(self, auto_schema):
        return {
            "type": "http",
            "scheme": "bearer",
            "description": "A personal access token from your profile page (hp_…).",
        }


class OrganisationTokenAuthentication(authentication.BaseAuthentication):
    """`Authorization: Bearer hpo_…`: an organisation's token for the team API
    (teams.services.org_tokens). The request's user is anonymous; `request.auth` is the
    OrganisationToken, which alone decides what the request may see and do."""

    keyword = "Bearer"

    def authenticate(self, request):
        presented = bearer_token(request)
        if presented is None:
            return None
        row = org_tokens.find_token(presented)
        if row is None:
            raise TokenFailed(
                "token_invalid", "The team API takes an organisation token (hpo_…) from the organisation's page."
            )
        if row.is_revoked:
            raise TokenFailed(
                "token_revoked", "That token was revoked. An owner can make a new one on the organisation's page."
            )
        org_tokens.mark_used(row)
        return AnonymousUser(), row

    def authenticate_header(self, request):
        return f'{self.keyword} realm="team-api"'


class OrganisationTokenScheme(OpenApiAuthenticationExtension):
    target_class = OrganisationTokenAuthentication
    name = "organisationToken"

    def get_security_definition(self, auto_schema):
        return {
            "type": "http",
            "scheme": "bearer",
            "description": "An organisation token (hpo_…), made by an owner on the organisation's page.",
        }
