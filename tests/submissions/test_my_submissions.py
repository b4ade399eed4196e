"""My submissions: every one reachable, a page at a time, filtered."""

from django.urls import reverse

from submissions.models import Purpose, Submission

LIST = reverse("submissions:list")


def test_pages_reach_every_submission(candidate_client, candidate, exercise_version):
    Submission.objects.bulk_create(
        Submission(user=candidate, exercise=exercise_version, code=f"x = {n}\n") for n in range(120)
    )
    ids = []
    for page in (1, 2, 3):
        ids += [s.pk for s in candidate_client.get(LIST, {"page": page}).context["page_obj"]]
    assert sorted(ids) == sorted(Submission.objects.values_list("pk", flat=True)) and len(ids) == 120


def test_filters_keep_to_my_own(candidate_client, candidate, outsider, exercise_version):
    check = Submission.objects.create(
        user=candidate, exercise=exercise_version, code="x = 1\n", purpose=Purpose.QUICK_CHECK
    )
    Submission.objects.create(
        user=candidate, exercise=exercise_version, code="x = 2\n", verdict="wrong_answer", status="done"
    )
    Submission.objects.create(user=outsider, exercise=exercise_version, code="x = 3\n", purpose=Purpose.QUICK_CHECK)
    response = candidate_client.get(LIST, {"purpose": "check", "exercise": "tiny-scale"})
    assert [s.pk for s in response.context["page_obj"]] == [check.pk]
    assert "purpose=check" in response.context["query"]
    assert candidate_client.get(LIST, {"verdict": "accepted"}).context["page_obj"].paginator.count == 0


def test_the_kind_filter_offers_what_a_learner_sends_and_validations_only_to_whoever_has_some(
    candidate_client, candidate, exercise_version
):
    def offered():
        return [value for value, _ in candidate_client.get(LIST).context["purposes"]]

    assert offered() == [Purpose.PRACTICE, Purpose.QUICK_CHECK]
    Submission.objects.create(user=candidate, exercise=exercise_version, code="x = 1\n", purpose=Purpose.VALIDATION)
    assert offered() == [Purpose.PRACTICE, Purpose.QUICK_CHECK, Purpose.VALIDATION]


def test_an_accepted_quick_check_is_never_called_accepted(candidate_client, candidate, exercise_version):
    Submission.objects.create(
        user=candidate,
        exercise=exercise_version,
        code="x = 1\n",
        purpose=Purpose.QUICK_CHECK,
        status="done",
        verdict="accepted",
    )
    for page in (LIST, reverse("questions:progress")):
        html = candidate_client.get(page).content.decode()
        assert ">Correct on small inputs</span>" in html and ">Accepted</span>" not in html
