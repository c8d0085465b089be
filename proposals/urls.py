from django.urls import path

from proposals import views

urlpatterns = [
    path("proposals", views.ProposalListApi.as_view(), name="proposal-list"),
]
