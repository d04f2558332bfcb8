from django.urls import path

from topics import api

urlpatterns = [
    path("public/topics", api.PublicTopicListView.as_view(), name="api-public-topics"),
    path("public/topics/<slug:slug>", api.PublicTopicDetailView.as_view(), name="api-public-topic"),
    path(
        "public/topics/<slug:slug>/editions/<int:edition_id>",
        api.PublicEditionView.as_view(),
        name="api-public-edition",
    ),
    path("topics", api.TopicPublishView.as_view(), name="api-topics"),
    path("topics/<slug:slug>", api.TopicOwnerView.as_view(), name="api-topic"),
    path("topics/<slug:slug>/follow", api.TopicFollowView.as_view(), name="api-topic-follow"),
    path("topics/<slug:slug>/fork", api.TopicForkView.as_view(), name="api-topic-fork"),
]
