"""The website's proposal form. What a person fills in becomes the API's body and is
validated by the API's serializer (the same rules and texts, in the visitor's
language); the file is judged by its bytes as the API judges it."""

from django import forms
from django.utils.translation import gettext_lazy as _

from proposals.serializers import ProposalCreateInputSerializer

# The API's field for each field of the form.
API_FIELDS = {
    "company_slug": "companySlug",
    "logo_id": "logoId",
    "company_name": "companyName",
    "website": "website",
    "source_url": "sourceUrl",
    "notes": "notes",
    "file": "file",
}


class ProposalForm(forms.Form):
    # Set by the link from a company's or a logo's page.
    company_slug = forms.CharField(required=False, widget=forms.HiddenInput)
    logo_id = forms.CharField(required=False, widget=forms.HiddenInput)
    company_name = forms.CharField(
        label=_("Company name"),
        required=False,
        help_text=_("Needed for a company that is not in the directory yet."),
    )
    file = forms.FileField(
        label=_("Logo file"),
        required=False,
        help_text=_("SVG, PNG, JPEG or WEBP, up to 5 MB. It is judged by its content."),
        # A hint for the file picker only: the bytes decide.
        widget=forms.ClearableFileInput(attrs={"accept": ".svg,.png,.jpg,.jpeg,.webp"}),
    )
    website = forms.CharField(label=_("Company website (optional)"), required=False)
    source_url = forms.CharField(
        label=_("Where you found the logo (optional)"),
        required=False,
        help_text=_("A web address starting with https:// or http://"),
    )
    notes = forms.CharField(
        label=_("Notes for the reviewers (optional)"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
    )

    def clean(self):
        cleaned = super().clean()
        body = {API_FIELDS[name]: value for name, value in cleaned.items() if value}
        serializer = ProposalCreateInputSerializer(data=body)
        if not serializer.is_valid():
            back = {api: name for name, api in API_FIELDS.items()}
            for field, detail in serializer.errors.items():
                target = back.get(field)
                if target in ("company_slug", "logo_id"):
                    target = None
                self.add_error(target, [str(message) for message in detail])
            return cleaned
        self.validated = serializer.validated_data
        return cleaned
