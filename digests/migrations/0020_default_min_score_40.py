"""The default minimum score moves from 60 to 40 with the convex relevance curve
(digests/runs/scoring.py, RELEVANCE_CURVE): on the new scale a real match of a fresh item
scores 50–90 overall, so a subscription left at the old default of 60 would drop most of its
real matches. Subscriptions at exactly 60 (the old default) move to 40 with it; any other
value was chosen by its owner and stays. Reversible: 40 goes back to 60."""

import django.core.validators
from django.db import migrations, models


def _move(old: int, new: int):
    def move(apps, schema_editor):
        Subscription = apps.get_model("digests", "Subscription")
        Subscription.objects.filter(min_score=old).update(min_score=new)

    return move


class Migration(migrations.Migration):
    dependencies = [
        ("digests", "0019_combinationcacheentry_group"),
    ]

    operations = [
        migrations.AlterField(
            model_name="subscription",
            name="min_score",
            field=models.PositiveSmallIntegerField(
                default=40, validators=[django.core.validators.MaxValueValidator(100)]
            ),
        ),
        migrations.RunPython(_move(60, 40), _move(40, 60)),
    ]
