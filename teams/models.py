"""Hiring teams: organisations, their members, the assessments they set and the
candidates who take them.

Every team-side object knows the path from itself to its Organisation
(`organisation_path`), so one helper (teams.access) can scope any lookup to the
organisations a user belongs to.
"""

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone

from questions.models import ExerciseVersion, Kind, Question
from submissions.models import Submission


class Role(models.TextChoices):
    OWNER = "owner", "Owner"
    REVIEWER = "reviewer", "Reviewer"


ALL_ROLES = frozenset(Role.values)


class Organisation(models.Model):
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=60, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    organisation_path = ""

    class Meta:
        ordering = ["name"]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("teams:organisation", args=[self.slug])

    @property
    def organisation(self):
        return self


class Membership(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    organisation = models.ForeignKey(Organisation, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.REVIEWER)
    created_at = models.DateTimeField(auto_now_add=True)

    organisation_path = "organisation"

    class Meta:
        ordering = ["organisation", "user__username"]
        constraints = [models.UniqueConstraint(fields=["user", "organisation"], name="unique_membership")]

    def __str__(self):
        return f"{self.user} ({self.get_role_display()}) in {self.organisation}"


class InvitationToken(models.Model):
    """A single-use, expiring link sent by e-mail. Only the SHA-256 of the token is
    stored, so a database leak does not hand out working links."""

    token_hash = models.CharField(max_length=64, unique=True)
    email = models.EmailField()
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        abstract = True

    @property
    def is_used(self):
        return self.used_at is not None

    @property
    def is_expired(self):
        return timezone.now() >= self.expires_at


class MemberInvitation(InvitationToken):
    organisation = models.ForeignKey(Organisation, on_delete=models.CASCADE, related_name="member_invitations")
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.REVIEWER)
    invited_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    organisation_path = "organisation"

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return f"{self.email} to {self.organisation} as {self.role}"


class AssessmentQuerySet(models.QuerySet):
    def published(self):
        return self.filter(published_at__isnull=False)


class TeamAssessmentManager(models.Manager.from_queryset(AssessmentQuerySet)):  # type: ignore[misc]
    """The default manager: a team's own assessments, never the practice ones built for its
    candidates (teams.services.practice), so no team page, list or API lookup reaches those."""

    def get_queryset(self):
        return super().get_queryset().filter(practice_for__isnull=True)


class Assessment(models.Model):
    organisation = models.ForeignKey(Organisation, on_delete=models.CASCADE, related_name="assessments")
    title = models.CharField(max_length=200)
    instructions = models.TextField(blank=True, help_text="Markdown, shown to candidates before they start.")
    time_limit_minutes = models.PositiveIntegerField(help_text="How long a candidate has once they start.")
    opens_at = models.DateTimeField(help_text="Candidates can start from this moment.")
    closes_at = models.DateTimeField(help_text="Candidates cannot start after this; invitation links expire then.")
    published_at = models.DateTimeField(
        null=True, blank=True, help_text="Set when published: questions and coding versions are frozen from then on."
    )
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    # What a candidate sees during a sitting: the owner's choice (CANDIDATE_VIEW lists them, in order).
    show_verdicts = models.BooleanField(
        "Results",
        default=True,
        help_text="Each graded submission's verdict, speedup and message. Off: the candidate sees only that it was graded.",
    )
    show_tracebacks = models.BooleanField(
        "Tracebacks",
        default=True,
        help_text="A failed submission's traceback or the line at fault (with results, and for quick checks).",
    )
    allow_quick_check = models.BooleanField(
        "Quick check",
        default=True,
        help_text="“Run on small inputs”: correctness on small inputs, shown to the candidate and never scored.",
    )
    show_hints = models.BooleanField("Hints", default=False, help_text="The coding question's hints, as in practice.")
    show_leaderboards = models.BooleanField(
        "Leaderboards",
        default=False,
        help_text="A link to the exercise's public leaderboard (questions from the public bank only).",
    )
    #: Set on a practice assessment: the real one whose candidates may take it first (teams.services.practice).
    practice_for = models.OneToOneField(
        "self", on_delete=models.CASCADE, null=True, blank=True, related_name="practice", editable=False
    )

    organisation_path = "organisation"
    objects = TeamAssessmentManager()
    #: Every assessment, the practice ones included: for teams.services.practice only.
    with_practice = AssessmentQuerySet.as_manager()

    CANDIDATE_VIEW = ("show_verdicts", "show_tracebacks", "allow_quick_check", "show_hints", "show_leaderboards")

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return self.title

    def get_absolute_url(self):
        return reverse("teams:assessment", args=[self.organisation.slug, self.pk])

    @property
    def is_published(self):
        return self.published_at is not None

    @property
    def time_limit(self):
        return timedelta(minutes=self.time_limit_minutes)

    def is_open(self, now=None):
        now = now or timezone.now()
        return self.is_published and self.opens_at <= now < self.closes_at

    @property
    def candidate_view(self):
        """What candidates see during a sitting, in words: [(label, shown)] in CANDIDATE_VIEW's order."""
        return [(self._meta.get_field(name).verbose_name, getattr(self, name)) for name in self.CANDIDATE_VIEW]

    @property
    def candidate_view_summary(self):
        shown = [label.lower() for label, on in self.candidate_view if on]
        return ", ".join(shown) if shown else "only that each submission was graded"


class AssessmentItem(models.Model):
    """One question of an assessment, in order. Coding questions are pinned to an
    ExerciseVersion at publication so every candidate faces the same exercise."""

    assessment = models.ForeignKey(Assessment, on_delete=models.CASCADE, related_name="items")
    question = models.ForeignKey(Question, on_delete=models.PROTECT, related_name="assessment_items")
    position = models.PositiveIntegerField()
    exercise_version = models.ForeignKey(
        ExerciseVersion, on_delete=models.PROTECT, null=True, blank=True, related_name="assessment_items"
    )
    target_speedup = models.FloatField(
        null=True,
        blank=True,
        help_text="Coding: the speedup over the reference that earns full marks (see reports.speed_score); "
        "empty: any accepted answer does.",
    )

    organisation_path = "assessment__organisation"

    class Meta:
        ordering = ["assessment", "position"]
        constraints = [
            models.UniqueConstraint(fields=["assessment", "question"], name="unique_assessment_question"),
        ]

    def __str__(self):
        return f"{self.assessment}: {self.position}. {self.question}"

    @property
    def organisation(self):
        return self.assessment.organisation

    @property
    def is_coding(self):
        return self.question.kind == Kind.CODING

    @property
    def number(self):
        """1-based place in the assessment, as candidates see it."""
        return self.position + 1

    @property
    def scoring_rule(self):
        """How a coding item is scored, in the words shown to owners and candidates."""
        if not self.is_coding:
            return ""
        if not self.target_speedup:
            return "Full marks for a correct answer, whatever its speed."
        return (
            f"A correct answer earns half marks at the reference's speed, rising with its speedup to full marks "
            f"at {self.target_speedup:g}× faster or more."
        )


class TeamInvitationManager(models.Manager):
    """The default manager: the invitations a team sent, never the one a candidate's practice
    sitting runs on (teams.services.practice), so no team page or API lookup reaches it."""

    def get_queryset(self):
        return super().get_queryset().filter(assessment__practice_for__isnull=True)


class CandidateInvitation(InvitationToken):
    assessment = models.ForeignKey(Assessment, on_delete=models.CASCADE, related_name="invitations")
    invited_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    extra_minutes = models.PositiveIntegerField(default=0, help_text="Extra time granted to this candidate.")

    organisation_path = "assessment__organisation"
    objects = TeamInvitationManager()

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["assessment", "email"], name="unique_candidate_invitation"),
        ]

    def __str__(self):
        return f"{self.email} for {self.assessment}"

    @property
    def organisation(self):
        return self.assessment.organisation


class SittingKind(models.TextChoices):
    """A sitting that counts, or a candidate's practice sitting before it: a practice sitting
    is never scored, reported, compared, announced by webhook or e-mailed to the team."""

    REAL = "real", "Assessment"
    PRACTICE = "practice", "Practice"


class FinishReason(models.TextChoices):
    SUBMITTED = "submitted", "Submitted by the candidate"
    EXPIRED = "expired", "Time ran out"


class CandidateSession(models.Model):
    """A candidate's sitting of an assessment. The clock starts at `started_at`; the
    server refuses answers after `deadline` and finalises the session then."""

    invitation = models.OneToOneField(CandidateInvitation, on_delete=models.CASCADE, related_name="session")
    assessment = models.ForeignKey(Assessment, on_delete=models.CASCADE, related_name="sessions")
    candidate = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="candidate_sessions")
    started_at = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)
    finish_reason = models.CharField(max_length=10, choices=FinishReason.choices, blank=True)
    #: When the sitting.graded event was raised (teams.webhooks): it is raised once.
    graded_event_at = models.DateTimeField(null=True, blank=True)
    kind = models.CharField(max_length=10, choices=SittingKind.choices, default=SittingKind.REAL, editable=False)

    organisation_path = "assessment__organisation"

    class Meta:
        ordering = ["-started_at"]

    def __str__(self):
        return f"{self.invitation.email} on {self.assessment}"

    @property
    def organisation(self):
        return self.assessment.organisation

    @property
    def is_practice(self):
        return self.kind == SittingKind.PRACTICE

    @property
    def deadline(self):
        return self.started_at + self.assessment.time_limit + timedelta(minutes=self.invitation.extra_minutes)

    @property
    def is_finished(self):
        return self.finished_at is not None

    def is_past_deadline(self, now=None):
        return (now or timezone.now()) >= self.deadline

    def time_used(self, now=None):
        end = self.finished_at or now or timezone.now()
        return max(min(end, self.deadline) - self.started_at, timedelta(0))


class Answer(models.Model):
    """A candidate's answer to a concept or numeric item, saved as they type, plus
    the reviewer's rubric ticks for concept answers."""

    session = models.ForeignKey(CandidateSession, on_delete=models.CASCADE, related_name="answers")
    item = models.ForeignKey(AssessmentItem, on_delete=models.CASCADE, related_name="answers")
    text = models.TextField(blank=True)
    numeric_input = models.CharField(max_length=100, blank=True)
    numeric_correct = models.BooleanField(null=True, help_text="Checked automatically when the answer is saved.")
    rubric_checked = models.JSONField(
        default=list, blank=True, help_text="Indexes of rubric points the reviewer ticked."
    )
    reviewed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    reviewed_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    organisation_path = "session__assessment__organisation"

    class Meta:
        constraints = [models.UniqueConstraint(fields=["session", "item"], name="unique_answer")]

    def __str__(self):
        return f"Answer to {self.item} by {self.session.invitation.email}"

    @property
    def organisation(self):
        return self.session.assessment.organisation


class SessionSubmission(models.Model):
    """Links a grader Submission (purpose=assessment) to the sitting it belongs to."""

    session = models.ForeignKey(CandidateSession, on_delete=models.CASCADE, related_name="session_submissions")
    item = models.ForeignKey(AssessmentItem, on_delete=models.CASCADE, related_name="session_submissions")
    submission = models.OneToOneField(Submission, on_delete=models.CASCADE, related_name="assessment_link")

    organisation_path = "session__assessment__organisation"

    class Meta:
        ordering = ["submission__created_at"]

    def __str__(self):
        return f"{self.submission} in {self.session}"

    @property
    def organisation(self):
        return self.session.assessment.organisation


class SignalKind(models.TextChoices):
    """What the sitting's integrity record holds. The browser reports the first four
    (teams.services.integrity.BROWSER_KINDS); the server records the fifth itself."""

    PASTE = "paste", "Pasted text"
    LEFT_PAGE = "left_page", "Left the page"
    SNAPSHOT = "snapshot", "Code snapshot"
    QUESTION_OPENED = "question_opened", "Opened the question elsewhere on the site"


class SittingSignal(models.Model):
    """One integrity signal of a sitting, at `at` (the server's time when it arrived;
    the browser's offset is clamped into the sitting). `data` holds what the kind
    needs: a paste's size in characters, a departure's duration in seconds, a
    snapshot's whole code text, the page a question was opened on."""

    session = models.ForeignKey(CandidateSession, on_delete=models.CASCADE, related_name="signals")
    item = models.ForeignKey(AssessmentItem, on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    kind = models.CharField(max_length=20, choices=SignalKind.choices)
    at = models.DateTimeField()
    data = models.JSONField(default=dict, blank=True)

    organisation_path = "session__assessment__organisation"

    class Meta:
        ordering = ["at", "pk"]
        indexes = [models.Index(fields=["session", "kind"])]

    def __str__(self):
        return f"{self.get_kind_display()} in {self.session_id} at {self.at:%H:%M:%S}"

    @property
    def organisation(self):
        return self.session.organisation


class OrganisationToken(models.Model):
    """A token for the team API (/api/v1/team/): it acts for its organisation only, with
    the role it was given (teams.access roles: a reviewer token reads, an owner token may
    also invite and revoke). Only the SHA-256 of the token is stored; it is shown once."""

    organisation = models.ForeignKey(Organisation, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=60, help_text="What the token is for, e.g. 'ATS sync'.")
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.REVIEWER)
    #: The first characters of the token, so owners can tell tokens apart; not secret.
    prefix = models.CharField(max_length=16)
    token_hash = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    organisation_path = "organisation"

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return f"{self.name} ({self.prefix}…, {self.organisation})"

    @property
    def is_revoked(self):
        return self.revoked_at is not None


class WebhookEvent(models.TextChoices):
    SITTING_STARTED = "sitting.started", "A candidate started a sitting"
    SITTING_SUBMITTED = "sitting.submitted", "A sitting finished (submitted, or time ran out)"
    SITTING_GRADED = "sitting.graded", "Every grading of a finished sitting is done"


class WebhookEndpoint(models.Model):
    """A URL of the organisation's that receives its events, signed with `secret`
    (teams.webhooks: the secret must be readable to sign, so it is stored as is)."""

    organisation = models.ForeignKey(Organisation, on_delete=models.CASCADE, related_name="webhook_endpoints")
    url = models.URLField(max_length=500)
    secret = models.CharField(max_length=64)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    organisation_path = "organisation"

    class Meta:
        ordering = ["created_at"]

    def __str__(self):
        return f"{self.url} ({self.organisation})"


class DeliveryStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    DELIVERED = "delivered", "Delivered"
    FAILED = "failed", "Failed"


class WebhookDelivery(models.Model):
    """One event sent to one endpoint: created before it is queued, updated after each try.
    `next_attempt_at` is set while a retry is scheduled."""

    endpoint = models.ForeignKey(WebhookEndpoint, on_delete=models.CASCADE, related_name="deliveries")
    event = models.CharField(max_length=40, choices=WebhookEvent.choices)
    payload = models.JSONField()
    status = models.CharField(max_length=10, choices=DeliveryStatus.choices, default=DeliveryStatus.PENDING)
    attempts = models.PositiveIntegerField(default=0)
    response_code = models.PositiveIntegerField(null=True, blank=True)
    last_error = models.CharField(max_length=300, blank=True)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    delivered_at = models.DateTimeField(null=True, blank=True)

    organisation_path = "endpoint__organisation"

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self):
        return f"{self.event} to {self.endpoint.url}: {self.status}"

    @property
    def organisation(self):
        return self.endpoint.organisation


class AuditAction(models.TextChoices):
    """Everything the audit log records, in one place (teams.services.audit.record)."""

    ASSESSMENT_CREATED = "assessment.created", "Created an assessment"
    ASSESSMENT_EDITED = "assessment.edited", "Edited an assessment"
    ASSESSMENT_PUBLISHED = "assessment.published", "Published an assessment"
    CANDIDATE_INVITED = "candidate.invited", "Invited a candidate"
    CANDIDATE_REVOKED = "candidate.revoked", "Revoked a candidate's invitation"
    GRADED_AGAIN = "submission.graded_again", "Asked for another grading"
    REPORT_VIEWED = "report.viewed", "Viewed a candidate's report"
    TOKEN_CREATED = "token.created", "Created an API token"
    TOKEN_REVOKED = "token.revoked", "Revoked an API token"
    WEBHOOK_ADDED = "webhook.added", "Added a webhook endpoint"
    WEBHOOK_REMOVED = "webhook.removed", "Removed a webhook endpoint"
    MEMBER_INVITED = "member.invited", "Invited a member"
    MEMBER_JOINED = "member.joined", "Joined as a member"
    MEMBER_REMOVED = "member.removed", "Removed a member"
    SSO_CHANGED = "sso.changed", "Changed single sign-on settings"


class AuditEntryQuerySet(models.QuerySet):
    """Entries are only ever added: bulk updates and deletes are refused (an organisation's
    deletion still removes its entries, through the database's cascade)."""

    def update(self, **kwargs):
        raise TypeError("Audit entries cannot be changed.")

    def delete(self):
        raise TypeError("Audit entries cannot be deleted.")


class AuditEntry(models.Model):
    """One thing a person (or an organisation API token) did in an organisation: who, what,
    when, to which object. Append-only: written by teams.services.audit.record in the
    transaction of the action; saving an existing entry or deleting one raises TypeError.
    `actor_label` and `target_label` keep the names as they were, so an entry still reads
    after its user, token or object is gone."""

    organisation = models.ForeignKey(Organisation, on_delete=models.CASCADE, related_name="audit_entries")
    at = models.DateTimeField(default=timezone.now, db_index=True)
    action = models.CharField(max_length=40, choices=AuditAction.choices)
    actor_user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    actor_token = models.ForeignKey(OrganisationToken, on_delete=models.SET_NULL, null=True, related_name="+")
    actor_label = models.CharField(max_length=200)
    target_type = models.CharField(max_length=40, blank=True)
    target_id = models.BigIntegerField(null=True, blank=True)
    target_label = models.CharField(max_length=300, blank=True)
    detail = models.CharField(max_length=300, blank=True)

    organisation_path = "organisation"
    objects = AuditEntryQuerySet.as_manager()

    class Meta:
        ordering = ["-at", "-pk"]
        indexes = [models.Index(fields=["organisation", "-at"])]
        verbose_name_plural = "audit entries"

    def __str__(self):
        return f"{self.at:%Y-%m-%d %H:%M} {self.actor_label}: {self.get_action_display()} {self.target_label}".strip()

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise TypeError("Audit entries cannot be changed.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise TypeError("Audit entries cannot be deleted.")
