"""What the import keeps of each company's entry as last imported, so that the next
import skips an entry unchanged since: a table of its own, apart from the company's
row, since writing a digest is then a narrow row (a company row carries every search
index and generated column: rewriting a million of them takes most of an hour)."""

from django.db import models

from directory.catalogue.models import Company


class ImportDigest(models.Model):
    company = models.OneToOneField(
        Company, primary_key=True, on_delete=models.CASCADE, related_name="import_digest"
    )
    # SHA-256 of the entry's text, its bytes as the catalogue file gives them.
    text = models.CharField(max_length=64)
    # SHA-256 of what the file system says of each file the entry names (its path, size,
    # modification time and inode): import_batch.files_digest().
    files = models.CharField(max_length=64)

    def __str__(self) -> str:
        return f"{self.company_id}: {self.text[:12]} {self.files[:12]}"
