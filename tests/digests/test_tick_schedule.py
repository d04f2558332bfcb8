"""The one platform schedule: django-q2 calls the dispatcher tick every minute."""

from django_q.models import Schedule

from digests.tasks import dispatch_tick


def test_migrations_install_exactly_one_minutely_tick(db):
    schedule = Schedule.objects.get(name="tidings-dispatcher-tick")
    assert schedule.func == "digests.tasks.dispatch_tick"
    assert (schedule.schedule_type, schedule.minutes, schedule.repeats) == ("I", 1, -1)
    # No per-user cron schedules, ever: user schedules are evaluated by the tick itself.
    assert Schedule.objects.count() == 1


def test_the_tick_task_reports_what_it_claimed(db):
    assert dispatch_tick() == {"sources": 0, "runs": 0, "swept": 0, "editions": 0, "deliveries": 0}


def test_task_timeout_is_below_retry_and_attempts_are_finite(settings):
    cluster = settings.Q_CLUSTER
    assert cluster["timeout"] < cluster["retry"]
    assert 0 < cluster["max_attempts"] < 10
    assert cluster["catch_up"] is False
