from django.urls import include, path

from . import views

app_name = "accounts"

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("profile/", views.profile, name="profile"),
    path("verify/<str:token>/", views.verify_email, name="verify_email"),
    path("verify/", views.resend_verification, name="resend_verification"),
]
