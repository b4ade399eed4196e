from django.urls import include, path

from . import views

app_name = "teams"

assessment_urls = [
    path("", views.assessment, name="assessment"),
    path("edit/", views.edit_assessment, name="assessment_edit"),
    path("questions/add/", views.add_question, name="add_question"),
    path("questions/<int:item_pk>/remove/", views.remove_item, name="remove_item"),
    path("questions/<int:item_pk>/move/", views.move_item, name="move_item"),
    path("publish/", views.publish, name="publish"),
    path("invite/", views.invite_candidates, name="invite_candidates"),
    path("report/", views.report, name="report"),
    path("report.csv", views.report_csv, name="report_csv"),
]

organisation_urls = [
    path("", views.organisation, name="organisation"),
    path("members/invite/", views.invite_member, name="invite_member"),
    path("members/<int:pk>/remove/", views.remove_member, name="remove_member"),
    path("api-tokens/", views.create_api_token, name="create_api_token"),
    path("api-tokens/<int:pk>/revoke/", views.revoke_api_token, name="revoke_api_token"),
    path("audit/", views.audit_log, name="audit_log"),
    path("audit.csv", views.audit_csv, name="audit_csv"),
    path("webhooks/", views.webhook_list, name="webhooks"),
    path("webhooks/<int:pk>/remove/", views.remove_webhook, name="remove_webhook"),
    path("webhooks/deliveries/<int:pk>/send-again/", views.send_webhook_again, name="send_webhook_again"),
    path("assessments/new/", views.create_assessment, name="assessment_create"),
    path("assessments/<int:pk>/", include(assessment_urls)),
    path("candidates/<int:session_pk>/", views.candidate_report, name="candidate_report"),
    path("candidates/<int:session_pk>/answers/<int:answer_pk>/review/", views.review_answer, name="review_answer"),
    path(
        "candidates/<int:session_pk>/submissions/<int:submission_pk>/timings.json",
        views.submission_timings,
        name="submission_timings",
    ),
    path(
        "candidates/<int:session_pk>/submissions/<int:submission_pk>/grade-again/",
        views.grade_again,
        name="grade_again",
    ),
    path("invitations/<int:invitation_pk>/extra-time/", views.extra_time, name="extra_time"),
    path("invitations/<int:invitation_pk>/link/", views.candidate_link, name="candidate_link"),
]

candidate_urls = [
    path("", views.take, name="take"),
    path("q/<int:number>/", views.take_question, name="take_question"),
    path("q/<int:number>/save/", views.save_answer, name="save_answer"),
    path("q/<int:number>/code/", views.submit_code, name="submit_code"),
    path("q/<int:number>/submissions.json", views.submission_status, name="submission_status"),
    path("signals/", views.record_signals, name="record_signals"),
    path("finish/", views.finish, name="finish"),
    path("done/", views.done, name="done"),
]

urlpatterns = [
    path("", views.index, name="index"),
    path("new/", views.create_organisation, name="create"),
    path("join/<str:token>/", views.join, name="join"),
    path("invitation/<str:token>/", views.candidate_start, name="candidate_start"),
    path("invitation/<str:token>/practice/", views.practice_start, name="practice_start"),
    path("org/<slug:org>/", include(organisation_urls)),
    path("sessions/<int:session_pk>/", include(candidate_urls)),
]
