from django.contrib.sitemaps.views import sitemap
from django.urls import include, path, re_path

from topics import console, views
from topics.feeds import TopicEditionsFeed
from topics.sitemaps import SITEMAPS

topic_patterns = [
    path("topics", views.topic_list, name="list"),
    path("topics/mine/", console.my_topics, name="mine"),
    path("topics/publish/<int:subscription_id>/", console.publish, name="publish"),
    path("topics/<slug:slug>", views.topic_detail, name="detail"),
    path("topics/<slug:slug>/feed", TopicEditionsFeed(), name="feed"),
    re_path(
        r"^topics/(?P<slug>[-\w]+)/editions/(?P<key>\d+|\d{4}-\d{2}-\d{2})$",
        views.edition_detail,
        name="edition",
    ),
    path("topics/<slug:slug>/follow", views.follow, name="follow"),
    path("topics/<slug:slug>/fork", views.fork, name="fork"),
    path("topics/<slug:slug>/report", views.report, name="report"),
    path("topics/<slug:slug>/edit/", console.edit, name="edit"),
    path("topics/<slug:slug>/delete/", console.delete, name="delete"),
]

urlpatterns = [
    path("", views.home, name="home"),
    path("robots.txt", views.robots_txt, name="robots"),
    path("sitemap.xml", sitemap, {"sitemaps": SITEMAPS}, name="sitemap"),
    path("", include((topic_patterns, "topics"))),
]
