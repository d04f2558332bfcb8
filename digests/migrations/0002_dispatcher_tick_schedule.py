"""Create the one platform schedule: the dispatcher tick, every minute.

Per-user schedules never become django-q2 schedules (see digests/scheduler.py).
"""

from django.db import migrations

TICK_NAME = "tidings-dispatcher-tick"


def create_tick(apps, schema_editor):
    Schedule = apps.get_model("django_q", "Schedule")
    Schedule.objects.update_or_create(
        name=TICK_NAME,
        defaults={
            "func": "digests.tasks.dispatch_tick",
            "schedule_type": "I",  # MINUTES
            "minutes": 1,
            "repeats": -1,
        },
    )


def remove_tick(apps, schema_editor):
    apps.get_model("django_q", "Schedule").objects.filter(name=TICK_NAME).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("digests", "0001_initial"),
        ("django_q", "0019_alter_task_options_alter_ormq_key_alter_ormq_lock_and_more"),
    ]

    operations = [migrations.RunPython(create_tick, remove_tick)]
