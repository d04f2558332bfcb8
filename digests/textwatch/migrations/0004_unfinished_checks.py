from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("watches", "0003_snapshot_baseline"),
    ]

    operations = [
        migrations.AddField(
            model_name="textwatch",
            name="unfinished_checks",
            field=models.PositiveSmallIntegerField(default=0),
        ),
    ]
