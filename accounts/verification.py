"""E-mail verification: an account may submit practice code (graded or a quick
check) once its owner has shown they read its address. Invitations need no prior
verification: a link only the invited address's mail carries is that proof.

Sign-up mails a link holding a signed token (django.core.signing, salted, with
the account and the address it was sent to; it expires after
VERIFICATION_MAX_AGE). Opening it records the address on the profile
(Profile.verified_email); the account is verified while that is still its
e-mail. A link that only the invited address's mail carries proves the same
(teams.services.invitations says which do), so accepting one verifies the account
that accepts it, when that address is the account's own.

An address is verified on one account at most. Unverified accounts do not hold
their address: registering someone else's e-mail first blocks nobody, and the
invitations to that address go to whoever proves they read it.
"""

from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.core.mail import send_mail
from django.template.loader import render_to_string

from .models import Profile, profile_for

SALT = "accounts.verify-email"
VERIFICATION_MAX_AGE = timedelta(days=3)


class VerificationError(Exception):
    """A link that does not verify, with a message for its owner."""


def normalise(email):
    return (email or "").strip().lower()


def is_verified(user):
    if not user.is_authenticated or not user.email:
        return False
    return Profile.objects.filter(user=user, verified_email=normalise(user.email)).exists()


def verified_accounts(email):
    """The accounts (at most one, unless they predate verification) that proved they read `email`."""
    return get_user_model().objects.filter(profile__verified_email=normalise(email), email__iexact=normalise(email))


def mark_verified(user):
    """Record that the owner of `user` read its address. Refused when another
    account already proved it: that account is the address's."""
    email = normalise(user.email)
    if verified_accounts(email).exclude(pk=user.pk).exists():
        raise VerificationError(
            f"{email} is already verified on another account: sign in to that one (or reset its password)."
        )
    profile = profile_for(user)
    profile.verified_email = email
    profile.save(update_fields=["verified_email"])


def verify_mailed_address(user, address):
    """Record that the owner of `user` opened a link mailed to `address`. Refused
    (VerificationError) unless `address` is the account's own e-mail: a link to one
    address proves nothing about another."""
    if normalise(address) != normalise(user.email):
        raise VerificationError(f"That link was sent to {normalise(address)}, which is not this account's address.")
    mark_verified(user)


def make_token(user):
    return signing.dumps({"user": user.pk, "email": normalise(user.email)}, salt=SALT)


def verify_token(token):
    """The account the token verifies, now verified; VerificationError otherwise."""
    try:
        data = signing.loads(token, salt=SALT, max_age=VERIFICATION_MAX_AGE)
    except signing.SignatureExpired:
        raise VerificationError("This verification link has expired: send yourself a new one.") from None
    except signing.BadSignature:
        raise VerificationError("This verification link is not valid: send yourself a new one.") from None
    user = get_user_model().objects.filter(pk=data.get("user"), is_active=True).first()
    if user is None or normalise(user.email) != data.get("email"):
        raise VerificationError("This link was sent to an address the account no longer has: send yourself a new one.")
    mark_verified(user)
    return user


#: The delivery backend EMAIL_URL's default (consolemail://) names: the worker prints the mail.
CONSOLE_DELIVERY = "django.core.mail.backends.console.EmailBackend"


def where_mail_arrives():
    """A sentence for pages that send someone to a mailed link: without a mail server
    (EMAIL_URL unset, as under `make run`) the link is in the terminal, not an inbox;
    empty when mail goes to real inboxes."""
    if settings.EMAIL_DELIVERY_BACKEND != CONSOLE_DELIVERY:
        return ""
    return (
        "This Hotpath has no mail server (EMAIL_URL is not set), so its e-mail is printed in the terminal that "
        "runs it (`make run` or the worker): the link is there."
    )


def unverified_coding_notice(user):
    """What the coding page tells a signed-in learner before they write code: that
    practice code waits for a verified address, and where the link is; "" once verified."""
    if not user.is_authenticated or is_verified(user):
        return ""
    address = user.email or "your address"
    return (
        f"Your e-mail address is not verified yet, so you can write code here but not run or submit it: "
        f"open the link we sent to {address} (your profile page sends a new one). {where_mail_arrives()}"
    ).rstrip()


def send_verification(user, link_for):
    """Mail the verification link; `link_for(token)` builds its absolute URL. Leaves on
    commit through the mail task (settings.EMAIL_BACKEND), like every other mail."""
    context = {"user": user, "url": link_for(make_token(user)), "days": VERIFICATION_MAX_AGE.days}
    send_mail(
        "Verify your e-mail address for Hotpath",
        render_to_string("accounts/email/verify_email.txt", context),
        settings.DEFAULT_FROM_EMAIL,
        [user.email],
    )
