"""What the team API (/api/v1/team/) sends and accepts: assessments, invitations and
sittings with their reports (teams.reports). Figures follow the reports' rules: a
coding answer's speed word says whether it counts as faster than the reference
(submissions.speed), and a speed rank is shared where 95% intervals overlap."""

from rest_framework import serializers

from questions.models import Kind
from submissions.states import Speed
from teams.models import FinishReason

SPEED_WORDS = [Speed.FASTER, Speed.NOT_FASTER, Speed.STARTER]


class TeamQuestionSerializer(serializers.Serializer):
    slug = serializers.SlugField()
    title = serializers.CharField()
    kind = serializers.ChoiceField(choices=Kind.choices)
    points = serializers.IntegerField(help_text="Its weight in the total score.")


class AssessmentItemSerializer(serializers.Serializer):
    number = serializers.IntegerField(help_text="1-based, as candidates see it.")
    question = TeamQuestionSerializer()
    target_speedup = serializers.FloatField(allow_null=True, help_text="Coding: the speedup that earns full marks.")
    scoring_rule = serializers.CharField()


class AssessmentSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    title = serializers.CharField()
    time_limit_minutes = serializers.IntegerField()
    opens_at = serializers.DateTimeField()
    closes_at = serializers.DateTimeField()
    published_at = serializers.DateTimeField(allow_null=True)
    created_at = serializers.DateTimeField()


class AssessmentDetailSerializer(AssessmentSerializer):
    instructions = serializers.CharField(help_text="Markdown, shown to candidates before they start.")
    items = AssessmentItemSerializer(many=True, source="ordered_items")


class InvitationSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    assessment = serializers.IntegerField(source="assessment_id")
    email = serializers.EmailField()
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField()
    extra_minutes = serializers.IntegerField()
    started = serializers.BooleanField(source="is_used", help_text="The candidate has started: the link is used up.")


class InvitationCreateSerializer(serializers.Serializer):
    email = serializers.EmailField(
        max_length=254, help_text="The candidate's address: the invitation is e-mailed there."
    )


class SittingSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="session.pk")
    assessment = serializers.IntegerField(source="session.assessment_id")
    candidate_email = serializers.EmailField(source="session.invitation.email")
    started_at = serializers.DateTimeField(source="session.started_at")
    deadline = serializers.DateTimeField(source="session.deadline")
    finished_at = serializers.DateTimeField(source="session.finished_at", allow_null=True)
    finish_reason = serializers.ChoiceField(
        source="session.finish_reason", choices=[("", "In progress"), *FinishReason.choices]
    )
    minutes_used = serializers.FloatField(help_text="Of the time limit, to 0.1 minute.")
    score = serializers.FloatField(
        help_text="0..1, weighted by question points; pending questions count 0 until scored."
    )
    pending = serializers.IntegerField(source="pending_count", help_text="Questions awaiting review or grading.")


class SpeedRankSerializer(serializers.Serializer):
    number = serializers.IntegerField(help_text="1-based place among the candidates whose answer is faster.")
    tied = serializers.BooleanField(help_text="Shared with others whose 95% intervals overlap.")
    label = serializers.CharField(help_text="'3', or '=2' for a shared place.")


class CodingResultSerializer(serializers.Serializer):
    verdict = serializers.CharField(allow_null=True, help_text="The counted (else the last) submission's verdict.")
    speed = serializers.ChoiceField(
        choices=SPEED_WORDS,
        allow_null=True,
        help_text="faster: its 95% interval lies wholly above 1 (only then is it ranked and earns speed credit); "
        "not_faster: correct, scored as at the reference's speed; starter: the starter code unchanged, 0.",
    )
    speedup = serializers.FloatField(allow_null=True)
    speedup_ci_low = serializers.FloatField(allow_null=True)
    speedup_ci_high = serializers.FloatField(allow_null=True)
    speed_rank = SpeedRankSerializer(allow_null=True)
    memory_vs_reference = serializers.FloatField(allow_null=True, help_text="Peak memory over the reference's.")
    submissions = serializers.IntegerField(help_text="Full gradings submitted (quick checks are not counted).")


class ItemResultSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    question = TeamQuestionSerializer()
    status = serializers.CharField()
    score = serializers.FloatField(allow_null=True, help_text="0..1; null while pending (review or grading).")
    coding = CodingResultSerializer(allow_null=True)


class SignalSerializer(serializers.Serializer):
    seconds = serializers.IntegerField(help_text="After the sitting's start.")
    kind = serializers.CharField(help_text="paste, left_page, question_opened, quick_check or submission.")
    label = serializers.CharField()
    question = serializers.IntegerField(allow_null=True)
    detail = serializers.CharField()


class SimilarityFlagSerializer(serializers.Serializer):
    question = serializers.IntegerField()
    score = serializers.FloatField(help_text="Share of fingerprints in common, 0..1 (teams.similarity).")
    other_sitting = serializers.IntegerField(
        allow_null=True, help_text="The other candidate's sitting, when it is one."
    )
    other = serializers.CharField(help_text="What the answer matched, in words.")


# The report's schema only: its body is built in teams (teams.report_payload), which the
# sitting.graded webhook sends too. (A docstring here would be the public schema's description.)
class SittingReportSerializer(SittingSerializer):
    results = ItemResultSerializer(many=True)
    integrity_signals = SignalSerializer(many=True)
    similarity_flags = SimilarityFlagSerializer(many=True)
