"""Staff admin for submissions: visible, read-only."""

from django.urls import reverse

from submissions.models import Submission


def test_staff_admin_shows_submissions_read_only(client, staff_author, candidate, exercise_version):
    submission = Submission.objects.create(user=candidate, exercise=exercise_version, code="x = 1\n")
    staff_author.is_superuser = True
    staff_author.save()
    client.force_login(staff_author)
    assert client.get(reverse("admin:grader_submission_changelist")).status_code == 200
    page = client.get(reverse("admin:grader_submission_change", args=[submission.pk]))
    assert page.status_code == 200 and b'name="_save"' not in page.content
    assert client.get(reverse("admin:grader_submission_add")).status_code == 403
