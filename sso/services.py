"""Sign-in through an organisation's own OpenID Connect provider.

The flow (authorization code with PKCE, S256): `start_sign_in` reads the provider's
discovery document, checks every endpoint it names, and redirects to the provider
with a fresh state and nonce kept in the session; `finish_sign_in` takes the
provider's answer at the callback, refuses a state this session did not start,
exchanges the code for tokens, and verifies the id_token: its signature against
the provider's published keys (JWKS), its issuer (the configured one), audience
(our client id), expiry and nonce. Then `account_for` maps the provider's verified
e-mail to an account. Every refusal is an SsoError whose text says what went wrong
and what to do.

Only https providers are accepted; plain http only for loopback addresses and only
where settings.SSO_ALLOW_HTTP_LOOPBACK is on (DEBUG and the tests).
"""

import ipaddress
from urllib.parse import urlsplit

import requests
from authlib.common.security import generate_token
from authlib.integrations.base_client import MismatchingStateError, OAuthError
from authlib.integrations.django_client import DjangoOAuth2App
from authlib.integrations.django_client.integration import DjangoIntegration
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from joserfc.errors import BadSignatureError, ClaimError, DecodeError, InvalidKeyIdError, JoseError

from accounts import verification
from teams.models import AuditAction, Membership, Role
from teams.services import audit

from . import sealing
from .models import ClaimedDomain, IdentityProvider, ProviderIdentity

#: What we ask the provider for: the person's stable id (openid) and their e-mail.
SCOPE = "openid email"
#: id_token signatures we accept: asymmetric only, so only the provider can sign.
SIGNING_ALGORITHMS = ("RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512")
#: The session key holding where to go after signing in.
NEXT_SESSION_KEY = "sso_next"
_LOOPBACK_NAMES = {"localhost"}
_ENDPOINTS = ("authorization_endpoint", "token_endpoint", "jwks_uri")


class SsoError(Exception):
    """A refused sign-in or configuration, with the message for the person."""


def check_provider_url(url, what="The issuer URL"):
    """Refuse (SsoError) a provider URL that is not https, unless it is plain http to a
    loopback address and settings.SSO_ALLOW_HTTP_LOOPBACK is on."""
    parts = urlsplit(url or "")
    if parts.scheme == "https" and parts.hostname:
        return
    if parts.scheme == "http" and parts.hostname and _is_loopback(parts.hostname):
        if settings.SSO_ALLOW_HTTP_LOOPBACK:
            return
    raise SsoError(f"{what} must start with https:// ({url or 'empty'} does not).")


def _is_loopback(hostname):
    if hostname in _LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(hostname).is_loopback
    except ValueError:
        return False


def domain_of(email):
    return verification.normalise(email).rpartition("@")[2]


def provider_for_email(email):
    """The enabled provider of the organisation that claims `email`'s domain, or None."""
    domain = domain_of(email)
    if not domain:
        return None
    claimed = (
        ClaimedDomain.objects.filter(name=domain, provider__enabled=True)
        .select_related("provider__organisation")
        .first()
    )
    return claimed.provider if claimed else None


def provider_requiring_sso(user):
    """The provider `user` must sign in through instead of a password, or None: that of an
    organisation they belong to which requires it and claims their e-mail's domain."""
    provider = provider_for_email(user.email)
    if provider is None or not provider.required:
        return None
    if not Membership.objects.filter(user=user, organisation=provider.organisation).exists():
        return None
    return provider


@transaction.atomic
def configure(organisation, *, actor, issuer, client_id, client_secret, domains, enabled, required, join_as_member):
    """Create or update `organisation`'s provider, as `actor` (an owner; the change goes in
    the organisation's audit log, never the secret). A blank `client_secret` keeps the stored
    one (it is never shown again); `domains` (lower-case names) replace the claimed ones.
    Raises SsoError when a domain is another organisation's or the issuer is not https."""
    check_provider_url(issuer)
    provider = IdentityProvider.objects.filter(organisation=organisation).first()
    if provider is None and not client_secret:
        raise SsoError("Enter the client secret the identity provider gave you.")
    taken = ClaimedDomain.objects.filter(name__in=domains).exclude(provider__organisation=organisation)
    if taken.exists():
        names = ", ".join(sorted(domain.name for domain in taken))
        raise SsoError(f"{names} is already covered by another organisation's single sign-on.")
    provider = provider or IdentityProvider(organisation=organisation)
    provider.issuer = issuer
    provider.client_id = client_id
    if client_secret:
        provider.client_secret_sealed = sealing.seal(client_secret)
    provider.enabled, provider.required, provider.join_as_member = enabled, required, join_as_member
    provider.save()
    provider.domains.exclude(name__in=domains).delete()
    for name in domains:
        ClaimedDomain.objects.get_or_create(provider=provider, name=name)
    summary = _summary(provider, domains)
    audit.record(organisation, actor, AuditAction.SSO_CHANGED, provider, target_label=issuer, detail=summary)
    return provider


def _summary(provider, domains):
    state = "required" if provider.required else "enabled" if provider.enabled else "off"
    return f"{state}; domains: {', '.join(sorted(domains)) or 'none'}; join as member: {provider.join_as_member}"


def discover(provider):
    """The provider's discovery document, checked: it names the configured issuer, and
    every endpoint we use is an allowed URL. SsoError when unreachable or wrong."""
    url = provider.issuer.rstrip("/") + "/.well-known/openid-configuration"
    try:
        response = requests.get(url, timeout=settings.SSO_HTTP_TIMEOUT)
        response.raise_for_status()
        metadata = response.json()
    except requests.RequestException as error:
        raise _unreachable(provider, error) from None
    except ValueError:
        raise SsoError(
            f"The identity provider's discovery document ({url}) is not JSON: "
            "the organisation's owner should check the issuer URL."
        ) from None
    if metadata.get("issuer") != provider.issuer:
        raise SsoError(
            f"The identity provider names its issuer {metadata.get('issuer')!r}, not "
            f"{provider.issuer!r}: the organisation's owner should enter the issuer it names."
        )
    for name in _ENDPOINTS:
        if not metadata.get(name):
            raise SsoError(f"The identity provider's discovery document has no {name}: it cannot be used.")
        check_provider_url(metadata[name], what=f"The provider's {name}")
    supported = metadata.get("id_token_signing_alg_values_supported") or ["RS256"]
    metadata["id_token_signing_alg_values_supported"] = [alg for alg in supported if alg in SIGNING_ALGORITHMS]
    if not metadata["id_token_signing_alg_values_supported"]:
        raise SsoError(
            f"The identity provider signs its tokens only with {', '.join(supported)}, which Hotpath does not accept."
        )
    return metadata


def _unreachable(provider, error):
    return SsoError(
        f"The identity provider at {provider.issuer} could not be reached "
        f"({type(error).__name__}): try again later, or tell your organisation's owner."
    )


def _client(provider, metadata):
    """An authlib client for this provider, built per request from its current settings."""
    name = f"sso-{provider.organisation.slug}"
    return DjangoOAuth2App(
        DjangoIntegration(name),
        name=name,
        client_id=provider.client_id,
        client_secret=sealing.unseal(provider.client_secret_sealed),
        client_kwargs={"scope": SCOPE, "code_challenge_method": "S256", "default_timeout": settings.SSO_HTTP_TIMEOUT},
        **metadata,
    )


def start_sign_in(request, provider, redirect_uri, next_url=""):
    """The redirect to the provider's sign-in page; the state, nonce and PKCE verifier
    stay in the session for `finish_sign_in`."""
    if not provider.enabled:
        raise SsoError(f"{provider.organisation.name} has turned its single sign-on off.")
    try:
        client = _client(provider, discover(provider))
    except sealing.SealError as error:
        raise SsoError(str(error)) from None
    request.session[NEXT_SESSION_KEY] = next_url
    return client.authorize_redirect(request, redirect_uri, nonce=_new_nonce())


def _new_nonce():
    return generate_token(32)


def finish_sign_in(request, provider):
    """The account the provider's answer at the callback signs in to (created or linked by
    `account_for`); SsoError for every refusal."""
    try:
        client = _client(provider, discover(provider))
        token = client.authorize_access_token(request)
    except sealing.SealError as error:
        raise SsoError(str(error)) from None
    except MismatchingStateError:
        raise SsoError(
            "This sign-in was not started here, or has already been used (its state does not match): start again."
        ) from None
    except OAuthError as error:
        raise _refused(error) from None
    except requests.RequestException as error:
        raise _unreachable(provider, error) from None
    except (BadSignatureError, InvalidKeyIdError, DecodeError):
        raise SsoError(
            "The identity provider's answer does not carry a valid signature from the keys it "
            "publishes: sign-in refused."
        ) from None
    except ClaimError as error:
        raise SsoError(
            f"The identity provider's answer is not valid for this sign-in ({error.description}): sign-in refused."
        ) from None
    except JoseError as error:
        raise SsoError(f"The identity provider's answer could not be checked ({error}): sign-in refused.") from None
    claims = token.get("userinfo")
    if not claims:
        raise SsoError("The identity provider answered without an id_token: sign-in refused.")
    return account_for(provider, claims)


def _refused(error):
    if error.error == "invalid_client":
        return SsoError(
            "The identity provider did not accept Hotpath's client id and secret: the organisation's "
            "owner should check them on its single sign-on settings."
        )
    detail = f"{error.error}: {error.description}" if error.description else error.error
    return SsoError(f"The identity provider refused the sign-in ({detail}).")


@transaction.atomic
def account_for(provider, claims):
    """The account a verified id_token's claims sign in to. The provider's subject already
    linked signs in to its account; otherwise the e-mail (verified by the provider, in a
    domain the organisation covers) maps to the account that verified it here, or to a
    new account, verified at once. Joins the organisation when the owner chose so."""
    email = verification.normalise(claims.get("email"))
    if not email:
        raise SsoError("The identity provider did not share your e-mail address: sign-in refused.")
    if claims.get("email_verified") not in (True, "true"):
        raise SsoError(f"Your identity provider has not verified {email}: verify it there, then sign in again.")
    if domain_of(email) not in provider.domain_names:
        covered = ", ".join(provider.domain_names) or "none"
        raise SsoError(
            f"{email} is not in a domain {provider.organisation.name} covers ({covered}): "
            "sign in with your password instead."
        )
    identity = ProviderIdentity.objects.filter(provider=provider, subject=claims["sub"]).select_related("user").first()
    user = identity.user if identity else _user_with_email(email)
    if not user.is_active:
        raise SsoError(f"The account for {email} is deactivated: ask the site's staff to reactivate it.")
    if identity is None:
        ProviderIdentity.objects.create(provider=provider, subject=claims["sub"], user=user)
    if provider.join_as_member:
        Membership.objects.get_or_create(
            user=user, organisation=provider.organisation, defaults={"role": Role.REVIEWER}
        )
    return user


def _user_with_email(email):
    """The account that verified `email` here, or a new one, verified. An account that
    registered the address without verifying it is not taken over: anyone can type an address."""
    existing = verification.verified_accounts(email).first()
    if existing is not None:
        return existing
    user = get_user_model().objects.create_user(username=_free_username(email), email=email)
    verification.mark_verified(user)
    return user


def _free_username(email):
    users = get_user_model().objects
    base = email.partition("@")[0][:140] or "member"
    candidate, number = base, 1
    while users.filter(username__iexact=candidate).exists():
        number += 1
        candidate = f"{base}-{number}"
    return candidate
