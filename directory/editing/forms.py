"""Forms of the staff back office (directory/editing/admin.py) and of the website's logo page."""

from django import forms
from django.conf import settings
from django.forms.models import BaseInlineFormSet

from directory.catalogue.models import Domain, Logo, Variant, VariantKind, normalise_domain
from directory.files.formats import detect_format

UNRECOGNISED_FILE = "Not a recognised SVG, PNG, PDF, AI, EPS or ZIP file."


class LogoAdminForm(forms.ModelForm):
    """A logo's own fields, plus the two things staff do to it through services:
    making it current and attaching a file."""

    make_current = forms.BooleanField(
        required=False,
        label="Make current",
        help_text="Make this the company's current logo; its previous current logo stops being so.",
    )
    upload = forms.FileField(
        required=False,
        label="Upload a file",
        help_text=(
            "SVG, PNG, PDF, AI, EPS or ZIP, recognised by its content. It replaces the file of "
            "that format of the chosen variant, if there is one."
        ),
    )
    upload_variant = forms.ModelChoiceField(
        queryset=Variant.objects.none(),
        required=False,
        empty_label="Main logo (no variant)",
        label="For",
    )

    class Meta:
        model = Logo
        fields = [
            "title",
            "slug",
            "company",
            "is_product",
            "era_from",
            "era_to",
            "era_label",
            "description",
            "color_palette",
        ]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if not self.instance._state.adding:
            self.fields["upload_variant"].queryset = Variant.objects.filter(logo=self.instance)

    def clean_upload(self) -> bytes | None:
        """The uploaded bytes, once they are known to be a logo file.

        Only the content counts: the file's name and its declared content type
        are the uploader's claims and are ignored.
        """
        upload = self.cleaned_data.get("upload")
        if not upload:
            return None
        if upload.size > settings.CATALOGUE_FILE_MAX_BYTES:
            raise forms.ValidationError(
                "Larger than the catalogue allows (%(limit)s bytes).",
                params={"limit": settings.CATALOGUE_FILE_MAX_BYTES},
            )
        upload.seek(0)
        data = upload.read()
        if detect_format(data) is None:
            raise forms.ValidationError(UNRECOGNISED_FILE)
        return data


class VariantInlineFormSet(BaseInlineFormSet):
    _parent_choices = None

    def add_fields(self, form, index):
        super().add_fields(form, index)
        parent = form.fields["parent"]
        # A version's parent is a type of the same logo; offering every variant of
        # the catalogue would be slow and let staff pick another logo's.
        parent.queryset = Variant.objects.filter(logo_id=self.instance.pk, kind=VariantKind.TYPE)
        # Read once for the whole formset, not once per variant shown.
        if self._parent_choices is None:
            self._parent_choices = list(parent.choices)
        parent.choices = self._parent_choices


class DomainForm(forms.ModelForm):
    class Meta:
        model = Domain
        fields = ["domain", "company"]

    def clean_domain(self) -> str:
        # The same normal form as the catalogue import's: the table only takes lower
        # case, and the API looks hosts up without "www.".
        return normalise_domain(self.cleaned_data["domain"])


class DownloadForm(forms.Form):
    """A download button of the logo page: the file is one of the logo's, by id."""

    asset = forms.UUIDField()
