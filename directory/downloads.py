"""Download links and the download quota.

A link is granted to a subject: an account, or an address when anonymous. Its
quota is a rolling 24 hours (anonymous 3, FREE 5, PRO and ENTERPRISE unlimited),
shared by the API and the website; a second link to the same logo within 12 hours
of a counted one is free. Granting holds a per-subject advisory lock for the whole
check-and-record, so simultaneous requests can never both take the last unit.
"""

import math
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.core import signing
from django.core.files.storage import default_storage
from django.db import connection, transaction
from django.db.models import F, Q
from django.utils import timezone

from accounts.models import Plan, User
from directory.models import Asset, Download, Logo

QUOTA_WINDOW = timedelta(hours=24)
REPEAT_WINDOW = timedelta(hours=12)
ANONYMOUS_LIMIT = 3
PLAN_LIMITS: dict[str, int | None] = {Plan.FREE: 5, Plan.PRO: None, Plan.ENTERPRISE: None}
LINK_SALT = "directory.download-link"


@dataclass(frozen=True)
class Subject:
    """Who a download counts against."""

    user: User | None
    ip: str | None
    limit: int | None  # None: unlimited

    @property
    def grants(self) -> Q:
        return Q(user=self.user) if self.user is not None else Q(user__isnull=True, ip=self.ip)

    @property
    def lock_key(self) -> str:
        return (
            f"download:user:{self.user.pk}" if self.user is not None else f"download:ip:{self.ip}"
        )


def download_subject(*, user: User | None, ip: str) -> Subject:
    if user is None:
        return Subject(user=None, ip=ip, limit=ANONYMOUS_LIMIT)
    return Subject(user=user, ip=None, limit=PLAN_LIMITS[user.plan])


@dataclass(frozen=True)
class Quota:
    unlimited: bool
    used: int
    limit: int
    remaining: int
    reset_at: datetime | None

    def retry_after(self, now: datetime) -> int:
        """Whole seconds until the oldest counted download leaves the window (at least 1)."""
        if self.reset_at is None:
            return 1
        return max(1, math.ceil((self.reset_at - now).total_seconds()))


def _quota(subject: Subject, counted_times: list[datetime]) -> Quota:
    used = len(counted_times)
    if subject.limit is None:
        return Quota(unlimited=True, used=used, limit=0, remaining=0, reset_at=None)
    return Quota(
        unlimited=False,
        used=used,
        limit=subject.limit,
        remaining=max(0, subject.limit - used),
        reset_at=min(counted_times) + QUOTA_WINDOW if counted_times else None,
    )


def _counted_in_window(subject: Subject, now: datetime) -> list[tuple[datetime, object]]:
    """(time, logo id) of the subject's counted downloads in the last 24 hours."""
    return list(
        Download.objects.filter(
            subject.grants, counted=True, created_at__gt=now - QUOTA_WINDOW
        ).values_list("created_at", "logo_id")
    )


def download_quota(subject: Subject, *, now: datetime | None = None) -> Quota:
    now = now or timezone.now()
    return _quota(subject, [moment for moment, _ in _counted_in_window(subject, now)])


class DownloadLimitReached(Exception):
    def __init__(self, quota: Quota, retry_after: int) -> None:
        super().__init__(f"quota used up; retry in {retry_after} s")
        self.quota = quota
        self.retry_after = retry_after


def download_grant(
    *, subject: Subject, logo: Logo, asset: Asset, channel: str, source: str
) -> tuple[Download, Quota]:
    """Records a granted download and returns it with the quota after it.

    DownloadLimitReached when it would count and the quota is used up; then nothing
    is recorded. Call it only once the file is known to exist.
    """
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", [subject.lock_key]
            )
        now = timezone.now()
        # The 12-hour repeat window lies inside the 24-hour quota window: one read for both.
        counted = _counted_in_window(subject, now)
        times = [moment for moment, _ in counted]
        repeat = any(
            logo_id == logo.pk and moment > now - REPEAT_WINDOW for moment, logo_id in counted
        )
        quota = _quota(subject, times)
        if not repeat and not quota.unlimited and quota.remaining == 0:
            raise DownloadLimitReached(quota, quota.retry_after(now))
        grant = Download.objects.create(
            user=subject.user,
            ip=subject.ip,
            logo=logo,
            asset=asset,
            channel=channel,
            source=source,
            counted=not repeat,
            created_at=now,
        )
        if grant.counted:
            Logo.objects.filter(pk=logo.pk).update(download_count=F("download_count") + 1)
            quota = _quota(subject, [*times, now])
    return grant, quota


def download_filename(asset: Asset) -> str:
    """{company-slug}-{logo-slug}[-{variant-key}].{ext}, lower case."""
    logo = asset.logo
    parts = [logo.company.slug, logo.slug]
    if asset.variant is not None:
        parts.append(asset.variant.key)
    return f"{'-'.join(parts)}.{asset.format}".lower()


def download_link(*, asset: Asset, filename: str, expires_at: datetime) -> str:
    """A temporary, absolute link to the file: S3 presigned, or signed for the file view."""
    if settings.STORAGE_BACKEND == "s3":
        return default_storage.url(
            asset.file.name,
            parameters={
                "ResponseContentDisposition": f'attachment; filename="{filename}"',
                "ResponseContentType": asset.content_type,
            },
            expire=int(settings.DOWNLOAD_LINK_SECONDS),
        )
    token = signing.dumps(
        {"a": str(asset.id), "n": filename, "e": int(expires_at.timestamp())},
        salt=LINK_SALT,
        compress=True,
    )
    return f"{settings.SITE_URL}/files/{token}"


@dataclass(frozen=True)
class SignedFile:
    asset: Asset
    filename: str


def signed_file(token: str) -> SignedFile | None:
    """The asset and file name a local link grants, or None if tampered with or expired."""
    try:
        claims = signing.loads(token, salt=LINK_SALT)
    except signing.BadSignature:
        return None
    if not isinstance(claims, dict) or claims.get("e", 0) < timezone.now().timestamp():
        return None
    asset = Asset.objects.filter(pk=claims.get("a")).first()
    if asset is None:
        return None
    return SignedFile(asset=asset, filename=claims.get("n") or "download")
