"""/api/v1/team/: the hiring team's API, for an organisation token (teams.services.org_tokens).
A token sees only its organisation: anything else is a 404, as on the team pages
(teams.access). Reviewer tokens read; owner tokens may also invite and revoke."""

from django.urls import reverse
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import NotFound
from rest_framework.response import Response
from rest_framework.views import APIView

from teams import report_payload, reports, services
from teams.models import Assessment, CandidateInvitation, CandidateSession, SittingKind

from . import team_serializers as t
from .authentication import OrganisationTokenAuthentication
from .errors import ApiError
from .pagination import Pagination
from .permissions import HasOrganisationToken
from .serializers import ErrorSerializer, PageParamsSerializer, paginated

ERRORS = {
    400: OpenApiResponse(ErrorSerializer, description="Bad input, or a refusal that says why"),
    401: OpenApiResponse(ErrorSerializer, description="No, bad or revoked organisation token"),
    403: OpenApiResponse(ErrorSerializer, description="Not allowed (a reviewer token writing)"),
    404: OpenApiResponse(ErrorSerializer, description="No such thing in the token's organisation"),
}


def _errors(*codes):
    return {code: ERRORS[code] for code in codes}


class TeamView(APIView):
    authentication_classes = [OrganisationTokenAuthentication]
    permission_classes = [HasOrganisationToken]

    @property
    def organisation(self):
        return self.request.auth.organisation

    def assessment(self, pk):
        try:
            return Assessment.objects.select_related("organisation").get(pk=pk, organisation=self.organisation)
        except Assessment.DoesNotExist:
            raise NotFound(f"Your organisation has no assessment #{pk}.") from None

    def sitting(self, pk):
        try:
            return CandidateSession.objects.select_related("assessment__organisation", "invitation", "candidate").get(
                pk=pk, assessment__organisation=self.organisation, kind=SittingKind.REAL
            )
        except CandidateSession.DoesNotExist:
            raise NotFound(f"Your organisation has no sitting #{pk}.") from None

    def page(self, queryset, serialize):
        PageParamsSerializer(data=self.request.query_params).is_valid(raise_exception=True)
        paginator = Pagination()
        rows = paginator.paginate_queryset(queryset, self.request, view=self)
        return paginator.get_paginated_response(serialize(rows))


class AssessmentList(TeamView):
    @extend_schema(
        operation_id="team_assessments_list",
        parameters=[PageParamsSerializer],
        responses={200: paginated(t.AssessmentSerializer), **_errors(400, 401, 404)},
    )
    def get(self, request):
        assessments = Assessment.objects.filter(organisation=self.organisation).order_by("-created_at", "-pk")
        return self.page(assessments, lambda rows: t.AssessmentSerializer(rows, many=True).data)


class AssessmentDetail(TeamView):
    @extend_schema(
        operation_id="team_assessments_retrieve", responses={200: t.AssessmentDetailSerializer, **_errors(401, 404)}
    )
    def get(self, request, pk):
        assessment = self.assessment(pk)
        assessment.ordered_items = assessment.items.select_related("question")
        return Response(t.AssessmentDetailSerializer(assessment).data)


class InvitationList(TeamView):
    @extend_schema(
        operation_id="team_invitations_list",
        parameters=[PageParamsSerializer],
        responses={200: paginated(t.InvitationSerializer), **_errors(400, 401, 404)},
    )
    def get(self, request, pk):
        invitations = self.assessment(pk).invitations.order_by("-created_at", "-pk")
        return self.page(invitations, lambda rows: t.InvitationSerializer(rows, many=True).data)

    @extend_schema(
        operation_id="team_invitations_create",
        description="Invite a candidate by e-mail: the invitation link is mailed to them (owner tokens only).",
        request=t.InvitationCreateSerializer,
        responses={201: t.InvitationSerializer, **_errors(400, 401, 403, 404)},
    )
    def post(self, request, pk):
        assessment = self.assessment(pk)
        body = t.InvitationCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        try:
            invitation = services.invite_candidate(
                assessment,
                body.validated_data["email"],
                request.auth,
                lambda token: request.build_absolute_uri(reverse("teams:candidate_start", args=[token])),
            )
        except services.TeamsError as error:
            raise ApiError(status.HTTP_400_BAD_REQUEST, "refused", error.message) from None
        return Response(t.InvitationSerializer(invitation).data, status=status.HTTP_201_CREATED)


class InvitationDetail(TeamView):
    @extend_schema(
        operation_id="team_invitations_revoke",
        description="Revoke an invitation whose candidate has not started: its link stops working (owner tokens only).",
        responses={204: None, **_errors(400, 401, 403, 404)},
    )
    def delete(self, request, pk):
        try:
            invitation = CandidateInvitation.objects.get(pk=pk, assessment__organisation=self.organisation)
        except CandidateInvitation.DoesNotExist:
            raise NotFound(f"Your organisation has no invitation #{pk}.") from None
        try:
            services.revoke_candidate_invitation(invitation, request.auth)
        except services.TeamsError as error:
            raise ApiError(status.HTTP_400_BAD_REQUEST, "refused", error.message) from None
        return Response(status=status.HTTP_204_NO_CONTENT)


class SittingList(TeamView):
    @extend_schema(
        operation_id="team_sittings_list",
        parameters=[PageParamsSerializer],
        responses={200: paginated(t.SittingSerializer), **_errors(400, 401, 404)},
    )
    def get(self, request, pk):
        sittings = self.assessment(pk).sessions.select_related("invitation", "assessment").order_by("started_at", "pk")
        return self.page(
            sittings, lambda rows: t.SittingSerializer([reports.candidate_report(row) for row in rows], many=True).data
        )


class SittingReport(TeamView):
    @extend_schema(
        operation_id="team_sittings_report",
        description="One candidate's report: scores per question, speed figures (ranked among the assessment's "
        "candidates, shared where intervals overlap), integrity signals and copy flags.",
        responses={200: t.SittingReportSerializer, **_errors(401, 404)},
    )
    def get(self, request, pk):
        session = self.sitting(pk)
        services.audit.record_report_view(session, request.auth)
        # Built in teams, in this schema's shape, so the sitting.graded webhook sends the same body.
        return Response(report_payload.sitting_report(session))
