"""The record of each download link handed out (the quota counts them)."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from directory.catalogue.models import Asset, Logo


class DownloadChannel(models.TextChoices):
    API = "API", "Public API"
    WEB = "WEB", "Website"


class Download(models.Model):
    """One download link handed out: to an account, or to an address when anonymous.

    `counted` says whether it took a unit of the quota: a second link to the same logo
    for the same subject within 12 hours is free.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="downloads",
    )
    ip = models.GenericIPAddressField(null=True, blank=True)
    logo = models.ForeignKey(Logo, on_delete=models.CASCADE, related_name="downloads")
    asset = models.ForeignKey(
        Asset, on_delete=models.SET_NULL, null=True, blank=True, related_name="downloads"
    )
    channel = models.CharField(max_length=3, choices=DownloadChannel.choices)
    source = models.CharField(max_length=8)
    counted = models.BooleanField()
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["user", "created_at"], name="download_user_recent"),
            models.Index(
                fields=["ip", "created_at"],
                condition=Q(user__isnull=True),
                name="download_ip_recent",
            ),
        ]
        constraints = [
            # Every grant belongs to exactly one subject: an account or an address.
            models.CheckConstraint(
                condition=Q(user__isnull=False, ip__isnull=True)
                | Q(user__isnull=True, ip__isnull=False),
                name="download_one_subject",
            ),
            models.CheckConstraint(
                condition=Q(channel__in=DownloadChannel.values), name="download_channel_known"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.logo_id} to {self.user_id or self.ip}"
