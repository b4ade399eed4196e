"""The test provider's URLs and its two customisations (provider_site.py says why)."""

import json
import os
from pathlib import Path

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.http import JsonResponse
from django.urls import include, path
from oauth2_provider.oauth2_validators import OAuth2Validator
from oauth2_provider.utils import jwk_from_pem
from oauth2_provider.views import JwksInfoView

from .provider_site import UNVERIFIED_GROUP


class EmailClaimsValidator(OAuth2Validator):
    """The id_token carries the user's e-mail and whether the provider verified it."""

    def get_additional_claims(self, request):
        user = request.user
        return {"email": user.email, "email_verified": not user.groups.filter(name=UNVERIFIED_GROUP).exists()}


class PublishedKeysView(JwksInfoView):
    def get(self, request, *args, **kwargs):
        other_key = Path(os.environ["PROVIDER_PUBLISHED_KEY_FILE"])
        if not other_key.exists():
            return super().get(request, *args, **kwargs)
        signing_id = jwk_from_pem(settings.OAUTH2_PROVIDER["OIDC_RSA_PRIVATE_KEY"]).thumbprint()
        published = json.loads(jwk_from_pem(other_key.read_text()).export_public())
        return JsonResponse({"keys": [{**published, "alg": "RS256", "use": "sig", "kid": signing_id}]})


urlpatterns = [
    path("accounts/login/", auth_views.LoginView.as_view()),
    path("o/.well-known/jwks.json", PublishedKeysView.as_view()),
    path("o/", include("oauth2_provider.urls", namespace="oauth2_provider")),
]
