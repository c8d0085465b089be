"""What related search keeps beside the catalogue: a vector per company."""

from django.db import models
from django.utils import timezone

from directory.catalogue.models import Company


class CompanyEmbedding(models.Model):
    """A company's text as a vector of one embedding model (directory/search/embeddings.py).

    `text_hash` hashes the model's name and the text the vector was made from: a
    company whose text now hashes otherwise has a stale vector, re-made after the
    commit of the change or by `embed_companies`. The id is the vector's key in the
    approximate index.
    """

    company = models.OneToOneField(Company, on_delete=models.CASCADE, related_name="embedding")
    model = models.CharField(max_length=200)
    text_hash = models.CharField(max_length=64)
    # Little-endian float32, L2-normalised.
    vector = models.BinaryField()
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [
            # Workers compare max(updated_at) with the version they hold on every search.
            models.Index(fields=["updated_at"], name="directory_embedding_updated"),
        ]

    def __str__(self) -> str:
        return f"{self.model} vector of {self.company_id}"
