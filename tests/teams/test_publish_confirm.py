"""Publishing cannot be undone, so its button asks first (static/js/hotpath.js reads data-confirm)."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_publish_asks_before_it_freezes_the_questions(client, hiring_manager, draft_assessment):
    client.force_login(hiring_manager)
    html = client.get(
        reverse("teams:assessment", args=[draft_assessment.organisation.slug, draft_assessment.pk])
    ).content.decode()
    assert 'data-confirm="Publish this assessment? Its questions cannot change afterwards.">Publish</button>' in html
