"""The federation's side (issue 29): credentials it issues to organisers, the stages it receives, verifies and
homologates; and the venue's side: the submissions waiting to be sent, with what the federation said of them.

One codebase runs on both sides (setting ``DAMAS_ROLE``): a venue only fills :class:`OutgoingSubmission`, the
federation only :class:`ApiCredential`, :class:`ApiNonce` and :class:`Submission`.
"""

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import F, Q


class ApiCredential(models.Model):
    """A key the federation gives an organiser (for all their events, or for one event's slug). Only a hash is
    kept: the key is shown once, when issued. Revoked keys stay (the submissions name them) but open nothing."""

    label = models.CharField("organizador", max_length=120)
    event_slug = models.SlugField("evento (vazio: todos do organizador)", max_length=80, blank=True)
    prefix = models.CharField("prefixo", max_length=16, unique=True)
    key_hash = models.CharField("hash da chave", max_length=64, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField("emitida em", auto_now_add=True)
    last_used_at = models.DateTimeField("último uso", null=True, blank=True)
    revoked_at = models.DateTimeField("revogada em", null=True, blank=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        verbose_name = "credencial de API"
        verbose_name_plural = "credenciais de API"
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=~Q(label=""), name="apicredential_label_not_empty"),
            models.CheckConstraint(
                condition=Q(revoked_at__isnull=True) | Q(revoked_at__gte=models.F("created_at")),
                name="apicredential_revoked_after_created",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.label} ({self.prefix})"

    @property
    def active(self) -> bool:
        return self.revoked_at is None


class ApiNonce(models.Model):
    """The one-time value of every write request the API accepted: a request sent again is refused (replay). Kept
    for ``services.NONCE_MEMORY``; also what the per-credential rate limit counts (sends and their bytes)."""

    credential = models.ForeignKey(ApiCredential, on_delete=models.CASCADE, related_name="+")
    nonce = models.CharField(max_length=64)
    seen_at = models.DateTimeField(auto_now_add=True, db_index=True)
    size = models.PositiveIntegerField("bytes do corpo", default=0)  # counted by the rate limit (issue 34.9)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["credential", "nonce"], name="apinonce_unique")]

    def __str__(self) -> str:
        return self.nonce


class StageStatus(models.TextChoices):
    REQUESTED = "requested", "pedida"
    ACCEPTED = "accepted", "aceita no calendário"
    REFUSED = "refused", "recusada"


class Stage(models.Model):
    """At the federation (issue 35.2): a circuit stage an organiser asked for with their credential, before it is
    played (or, late, when sending it). Its ``identifier`` ("CBJD-2026-007") is the stage's one record: every
    submission carries it, whatever slug the venue uses, and only the organiser who asked for it sends it."""

    identifier = models.CharField("identificador", max_length=20, unique=True)
    credential = models.ForeignKey(ApiCredential, on_delete=models.PROTECT, related_name="stages")
    name = models.CharField("nome", max_length=200)
    city = models.CharField("cidade", max_length=100)
    state = models.CharField("UF", max_length=2, blank=True)
    start_date = models.DateField("início")
    end_date = models.DateField("término")
    format = models.CharField("formato", max_length=20)
    planned_rounds = models.PositiveSmallIntegerField("rodadas")
    minutes_per_game = models.PositiveSmallIntegerField("minutos por jogo")
    venue_slug = models.SlugField("endereço no local", max_length=80, blank=True)
    requested_at = models.DateTimeField("pedida em", auto_now_add=True)
    late = models.BooleanField("registrada tarde (pedida a partir do início)", default=False)
    status = models.CharField(max_length=10, choices=StageStatus.choices, default=StageStatus.REQUESTED)
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    decision_reason = models.CharField("motivo", max_length=500, blank=True)
    # a refused stage the organiser asked for again (corrected): the same record re-opened, the last refusal kept
    asked_again_at = models.DateTimeField("pedida de novo em", null=True, blank=True)
    previous_refusal = models.CharField("motivo da recusa anterior", max_length=500, blank=True)

    class Meta:
        verbose_name = "etapa do calendário"
        verbose_name_plural = "etapas do calendário"
        ordering = ["start_date", "identifier"]
        constraints = [
            models.CheckConstraint(condition=Q(end_date__gte=models.F("start_date")), name="stage_dates_ordered"),
            models.CheckConstraint(condition=Q(status__in=StageStatus.values), name="stage_status_valid"),
            models.CheckConstraint(
                condition=~Q(status="refused") | ~Q(decision_reason=""), name="stage_refusal_has_reason"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.identifier} {self.name}"


class StageFingerprint(models.Model):
    """At the federation (issue 35.4): a round's fingerprint as the venue sent it when it was published (kind
    "pairing") or its results complete ("results"). Every one received is kept: a round published twice (undone and
    paired again) is two rows, which the verification shows."""

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="fingerprints")
    round = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=8, choices=[("pairing", "emparceiramento"), ("results", "resultados")])
    fingerprint = models.CharField(max_length=12)
    sealed_at = models.DateTimeField("selada no local em (segundo o local)", null=True, blank=True)
    received_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["stage", "round", "kind", "received_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["stage", "round", "kind", "fingerprint"], name="stagefingerprint_once"),
            models.CheckConstraint(condition=Q(kind__in=["pairing", "results"]), name="stagefingerprint_kind"),
        ]

    def __str__(self) -> str:
        return f"{self.stage_id} {self.round} {self.kind} {self.fingerprint}"


class SubmissionStatus(models.TextChoices):
    RECEIVED = "received", "recebido"
    VERIFIED = "verified", "verificado"
    APPROVED = "approved", "homologado"
    REFUSED = "refused", "recusado"
    SUPERSEDED = "superseded", "substituído por versão posterior"


class Submission(models.Model):
    """One version of a stage as the federation received it. The same file twice is one row (``sha256``); a
    later file for the same event is a new version that supersedes the earlier one, with what changed."""

    credential = models.ForeignKey(ApiCredential, on_delete=models.PROTECT, related_name="submissions")
    # The registered stage the file names (issue 35.2, 36.5): its versions are the stage's, whatever the slug.
    stage = models.ForeignKey(Stage, on_delete=models.PROTECT, null=True, blank=True, related_name="submissions")
    event_slug = models.SlugField(max_length=80)
    event_name = models.CharField(max_length=200)
    start_date = models.DateField()
    end_date = models.DateField()
    version = models.PositiveIntegerField()
    sha256 = models.CharField(max_length=64)
    payload = models.JSONField("arquivo de intercâmbio")
    # The federation's clock decides the deadline of art. 6 and 11; what the venue says is only shown.
    received_at = models.DateTimeField("recebido pela federação em", auto_now_add=True)
    venue_created_at = models.DateTimeField("gerado no local em (segundo o local)", null=True, blank=True)
    status = models.CharField(max_length=12, choices=SubmissionStatus.choices, default=SubmissionStatus.RECEIVED)
    supersedes = models.ForeignKey("self", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    changes = models.JSONField("alterações em relação à versão comparada", default=list, blank=True)
    # the version ``changes`` compares with: the approved version of the event when there is one, else the one
    # before (issue 36.8: a refused version is no reference)
    compared_with = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="+", verbose_name="comparado com"
    )
    findings = models.JSONField("apontamentos", default=list, blank=True)
    rights = models.BooleanField("direito a vagas", null=True, blank=True)
    qualification = models.JSONField("classificação por categoria", default=list, blank=True)
    registry_date = models.DateField("data da lista usada na verificação", null=True, blank=True)
    # what the last verification changed in the verdict of the one before (issue 36.2): lines in Portuguese
    verdict_changes = models.JSONField("mudanças no veredito na última verificação", default=list, blank=True)
    # the officer's answers to the registry matches (issue 36.3): player id (str) -> {"cbjd_id", "by", "at"}
    resolutions = models.JSONField("identidades conferidas", default=dict, blank=True)
    verified_at = models.DateTimeField(null=True, blank=True)
    # The worker verifying it holds a lease until this moment (issue 34.5): a worker killed mid-verification
    # leaves a lease that expires, and the sweep (tasks.verification_resume) gives the stage to a worker again.
    verification_claimed_at = models.DateTimeField("verificação iniciada em", null=True, blank=True)
    verification_lease_until = models.DateTimeField(null=True, blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    decision_reason = models.CharField("motivo", max_length=500, blank=True)

    class Meta:
        verbose_name = "envio de etapa"
        verbose_name_plural = "envios de etapas"
        ordering = ["-received_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["event_slug", "sha256"], condition=Q(stage__isnull=True), name="submission_same_file_once"
            ),
            models.UniqueConstraint(
                fields=["event_slug", "version"], condition=Q(stage__isnull=True), name="submission_version_unique"
            ),
            models.UniqueConstraint(
                fields=["stage", "sha256"], condition=Q(stage__isnull=False), name="submission_stage_file_once"
            ),
            models.UniqueConstraint(
                fields=["stage", "version"], condition=Q(stage__isnull=False), name="submission_stage_version_unique"
            ),
            models.CheckConstraint(condition=Q(status__in=SubmissionStatus.values), name="submission_status_valid"),
            models.CheckConstraint(
                condition=~Q(status="refused") | ~Q(decision_reason=""), name="submission_refusal_has_reason"
            ),
            models.CheckConstraint(
                condition=~Q(status__in=["approved", "refused"]) | Q(decided_at__isnull=False),
                name="submission_decision_dated",
            ),
        ]
        indexes = [models.Index(fields=["status", "start_date"], name="submission_status_date")]

    def __str__(self) -> str:
        return f"{self.event_name} v{self.version}"


class OutgoingStatus(models.TextChoices):
    PENDING = "pending", "pendente"
    SENT = "sent", "enviado"
    RECEIVED = "received", "recebido pela federação"
    VERIFIED = "verified", "verificado"
    APPROVED = "approved", "homologado"
    REFUSED = "refused", "recusado"
    SUPERSEDED = "superseded", "substituído por versão posterior"


class OutgoingSubmission(models.Model):
    """At the venue: one version of an event to send to the federation. Kept in the database with its next try,
    so a closed laptop loses nothing; the same file is queued once."""

    tournament = models.ForeignKey("tournaments.Tournament", on_delete=models.CASCADE, related_name="+")
    sha256 = models.CharField(max_length=64)
    payload = models.TextField("arquivo de intercâmbio")
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    status = models.CharField(max_length=12, choices=OutgoingStatus.choices, default=OutgoingStatus.PENDING)
    attempts = models.PositiveIntegerField(default=0)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    last_error = models.CharField(max_length=300, blank=True)
    sent_at = models.DateTimeField("enviado em", null=True, blank=True)
    received_at = models.DateTimeField("recebido pela federação em", null=True, blank=True)
    remote_version = models.PositiveIntegerField(null=True, blank=True)
    findings_count = models.PositiveIntegerField(null=True, blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    decision_reason = models.CharField(max_length=500, blank=True)
    synced_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = "envio à federação"
        verbose_name_plural = "envios à federação"
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "sha256"], name="outgoing_same_file_once"),
            models.CheckConstraint(condition=Q(status__in=OutgoingStatus.values), name="outgoing_status_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id} {self.sha256[:8]} {self.status}"


class StageRequest(models.Model):
    """At the venue (issue 35.2): the director's request that the federation register this event as a circuit
    stage, sent by the worker when online (like the submissions). The answer binds the event to the stage's
    identifier (``Tournament.stage_id``)."""

    tournament = models.OneToOneField("tournaments.Tournament", on_delete=models.CASCADE, related_name="stage_request")
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    status = models.CharField(max_length=12, choices=OutgoingStatus.choices, default=OutgoingStatus.PENDING)
    attempts = models.PositiveIntegerField(default=0)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    last_error = models.CharField(max_length=300, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    stage_id = models.CharField(max_length=20, blank=True)
    # the stage's state in the federation's calendar (StageStatus: requested, accepted, refused), as the request's
    # answer gave it and the venue's sync asks again while undecided; the refusal's reason with it
    remote_status = models.CharField(max_length=10, blank=True)
    decision_reason = models.CharField(max_length=500, blank=True)
    late = models.BooleanField(default=False)

    class Meta:
        verbose_name = "pedido de registro de etapa"
        verbose_name_plural = "pedidos de registro de etapa"
        constraints = [
            models.CheckConstraint(condition=Q(status__in=OutgoingStatus.values), name="stagerequest_status_valid")
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id} {self.status} {self.stage_id}"


class RegistrySync(models.Model):
    """At the venue: one download of the federation's national list and suspensions in force."""

    list_name = models.CharField("lista", max_length=200, blank=True)
    list_date = models.DateField("data da lista", null=True, blank=True)
    players = models.PositiveIntegerField(default=0)
    suspensions = models.PositiveIntegerField(default=0)
    synced_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-synced_at", "-id"]

    def __str__(self) -> str:
        return f"{self.list_name} ({self.list_date})"


class RatingListRow(models.Model):
    """One player's rating as a national list gave it: the federation verifies a stage against the list in force
    on the event's date (art. 4), not against today's ratings."""

    rating_list = models.ForeignKey("tournaments.RatingList", on_delete=models.CASCADE, related_name="rows")
    cbjd_id = models.CharField(max_length=20)
    rating = models.PositiveIntegerField(null=True, blank=True)
    rated_games = models.PositiveIntegerField(default=0)  # as the list counted them (issue 40)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["rating_list", "cbjd_id"], name="ratinglistrow_unique")]

    def __str__(self) -> str:
        return f"{self.cbjd_id}: {self.rating}"


class RatingRelease(models.Model):
    """A national rating list the federation computed from the stages it approved and published (issue 40.3).

    Frozen once published: its rows (each player's rating before and after, the rated games, the change stage by
    stage) and the submissions it rated are what was published, and nothing later changes them: a stage approved
    afterwards, or an approval withdrawn, goes into the next release. Publishing imports the same CSV the venues
    import into the registry (``rating_list``), so the two cannot differ."""

    period_start = models.DateField("início do período")
    period_end = models.DateField("fim do período")
    list_date = models.DateField("data da lista", unique=True)
    based_on = models.ForeignKey(
        "tournaments.RatingList", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    rating_list = models.OneToOneField(
        "tournaments.RatingList", on_delete=models.PROTECT, related_name="release", null=True, blank=True
    )
    stages = models.JSONField("etapas avaliadas", default=list)  # [{submission, key, name, version, sign}]
    rows = models.JSONField("linhas publicadas", default=list)
    csv = models.TextField("arquivo CSV publicado")
    published_at = models.DateTimeField(auto_now_add=True)
    published_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["-list_date", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(period_start__lte=F("period_end")), name="ratingrelease_period_order"),
            models.CheckConstraint(condition=Q(list_date__gte=F("period_end")), name="ratingrelease_after_period"),
        ]

    def __str__(self) -> str:
        return f"Lista de {self.list_date:%d/%m/%Y} ({self.period_start:%d/%m/%Y} a {self.period_end:%d/%m/%Y})"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None and type(self).objects.filter(pk=self.pk).exists():
            raise ValueError("Uma lista publicada não muda: a próxima lista leva as alterações.")
        super().save(*args, **kwargs)
