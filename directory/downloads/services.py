"""Download links and the download quota.

A link is granted to a subject: an account, or an address when anonymous. Its
quota is a rolling 24 hours (anonymous 3, FREE 5, PRO and ENTERPRISE unlimited),
shared by the API and the website; a second link to the same logo within 12 hours
of a counted one is free. The check and the record are one call of the PL/pgSQL
function directory_download_grant (directory/sql/functions/), which holds a
per-subject advisory lock until the grant commits, so simultaneous requests can
never both take the last unit.

With S3 storage the link is presigned, which boto3 does offline: without a look at
the store, a download would be granted (and counted) while the store is down, and
the client's GET would then fail. So the object is looked at first (one HEAD, short
timeouts, no retries); an unreachable or failing store raises urllib3's error, which
the API answers with 503, and nothing is counted.
"""

import math
from dataclasses import dataclass
from datetime import datetime, timedelta

import urllib3
from django.conf import settings
from django.core import signing
from django.core.files.storage import default_storage
from django.db import connection
from django.db.models import Count, Max, Min, Q
from django.utils import timezone

from accounts.models import Plan, User
from directory.catalogue.models import Asset, Logo
from directory.downloads.models import Download

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


def _quota(subject: Subject, *, used: int, oldest: datetime | None) -> Quota:
    if subject.limit is None:
        return Quota(unlimited=True, used=used, limit=0, remaining=0, reset_at=None)
    return Quota(
        unlimited=False,
        used=used,
        limit=subject.limit,
        remaining=max(0, subject.limit - used),
        reset_at=oldest + QUOTA_WINDOW if oldest else None,
    )


class DownloadLimitReached(Exception):
    def __init__(self, quota: Quota, retry_after: int) -> None:
        super().__init__(f"quota used up; retry in {retry_after} s")
        self.quota = quota
        self.retry_after = retry_after


# The lock, the window, the grant when allowed and the logo's downloadCount when it
# counts: the ORM's aggregate, insert and update cost more CPU than the rest of the
# request, so they run in one call of directory_download_grant
# (directory/sql/functions/directory_download_grant.sql), one round trip. Outside a
# transaction the server runs the call as one implicit transaction, so the lock is held
# until the grant is committed.
#
# The commit does not wait for its WAL to reach the disk (synchronous_commit off for
# this transaction only): that wait was two thirds of a grant's time (7.3 ms against
# 2.6 ms here, bench/downloads.py), and a request holds its worker for all of it.
# What it risks: a database crash, not a clean shutdown, can lose the grants of the
# last moment (at most three times wal_writer_delay, 0.6 s by default). The download
# rows and the logo's count go together, so they stay consistent; a lost grant only
# gives its subject one more download than the quota. No other write is relaxed.
_GRANT_SQL = "SELECT * FROM directory_download_grant(%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)"
# What the grant loads as a Download: the columns of its row, in the model's order.
_GRANT_FIELDS = (
    "id",
    "user_id",
    "ip",
    "logo_id",
    "asset_id",
    "channel",
    "source",
    "counted",
    "created_at",
)


# The look is a HEAD of the link that django-storages has boto3 presign for it (the
# storage's own url(), so its key, bucket and credentials are the ones the download link
# uses), sent by urllib3 with timeouts of its own: a store that does not answer within
# these is as good as down for a client waiting on its link, and botocore's defaults
# (60 s each, up to 5 attempts) would hold a worker for minutes and pile up retries on
# a store that is already struggling.
_PROBE_SECONDS = 60
_PROBE = urllib3.PoolManager(timeout=urllib3.Timeout(connect=2, read=3), retries=False)


def _confirm_stored(asset: Asset) -> None:
    """Raises urllib3's error when the object store cannot be reached or fails (5xx),
    and FileNotFoundError when it does not show the asset's object.

    Local storage is not looked at: its files are served by this app, which is up.
    """
    if settings.STORAGE_BACKEND != "s3":
        return
    url = default_storage.url(asset.file.name, expire=_PROBE_SECONDS, http_method="HEAD")
    status = _PROBE.request("HEAD", url).status
    if status >= 500:
        raise urllib3.exceptions.ResponseError(f"the object store answered {status}")
    if status != 200:
        raise FileNotFoundError(f"the object store answered {status} for {asset.file.name}")


def download_grant(
    *, subject: Subject, logo: Logo, asset: Asset, channel: str, source: str
) -> tuple[Download, Quota]:
    """Records a granted download and returns it with the quota after it.

    DownloadLimitReached when it would count and the quota is used up; then nothing
    is recorded. Call it only once the asset is known; with S3 storage the object is
    confirmed first, before the lock, so an unreachable store counts nothing (and a
    slow one holds no lock).
    """
    _confirm_stored(asset)
    now = timezone.now()
    # The grant's columns between its id and its `counted`, in the model's field order.
    row = [
        subject.user.pk if subject.user is not None else None,
        subject.ip,
        logo.pk,
        asset.pk,
        channel,
        source,
    ]
    windows = [now, now - QUOTA_WINDOW, now - REPEAT_WINDOW, subject.limit]
    with connection.cursor() as cursor:
        cursor.execute(_GRANT_SQL, [subject.lock_key, *row, *windows])
        used, oldest, grant_id, counted = cursor.fetchone()
    if grant_id is None:
        quota = _quota(subject, used=used, oldest=oldest)
        raise DownloadLimitReached(quota, quota.retry_after(now))
    # The row as the database holds it now: a model loaded, not one still to insert.
    grant = Download.from_db(connection.alias, _GRANT_FIELDS, [grant_id, *row, counted, now])
    grant.user, grant.logo, grant.asset = subject.user, logo, asset
    if counted:
        used, oldest = used + 1, oldest or now
    return grant, _quota(subject, used=used, oldest=oldest)


@dataclass(frozen=True)
class QuotaReading:
    """The quota as it stands, without a grant: what a page shows before a click."""

    quota: Quota
    # Until when another download of the logo asked about is free; None when it counts.
    repeat_until: datetime | None

    @property
    def blocked(self) -> bool:
        """A download of that logo would be refused now."""
        quota = self.quota
        return not quota.unlimited and quota.remaining == 0 and self.repeat_until is None


def download_quota(*, subject: Subject, logo: Logo | None = None) -> QuotaReading:
    """The subject's quota now, read from the same counted rows the grant counts, and
    whether a download of `logo` would be a free repeat. Only a read: the grant alone
    decides, under its lock."""
    now = timezone.now()
    mine = Q(user=subject.user) if subject.user is not None else Q(user__isnull=True, ip=subject.ip)
    logo_id = logo.pk if logo is not None else None
    window = Download.objects.filter(mine, counted=True, created_at__gt=now - QUOTA_WINDOW)
    read = window.aggregate(
        used=Count("id"),
        oldest=Min("created_at"),
        last_of_logo=Max("created_at", filter=Q(logo_id=logo_id)),
    )
    last = read["last_of_logo"]
    repeat_until = last + REPEAT_WINDOW if last and last > now - REPEAT_WINDOW else None
    return QuotaReading(
        quota=_quota(subject, used=read["used"], oldest=read["oldest"]), repeat_until=repeat_until
    )


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


def downloads_prune(*, older_than: timedelta) -> int:
    """Deletes download records older than `older_than`; the last 24 hours are kept
    whatever is asked, since quotas and free repeats are read from them.

    The counts on logos stay: downloadCount is a running total, not a recount.
    """
    cutoff = timezone.now() - max(older_than, QUOTA_WINDOW)
    deleted, _ = Download.objects.filter(created_at__lt=cutoff).delete()
    return deleted
