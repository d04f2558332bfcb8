"""Fill RunItem.why for the rows made before it: each stored reason read back into its parts
(digests.narrative.reasons.parse, in every language we ship). A reason with any piece not
recognised (cut at 500 characters, imported, hand-written) keeps an empty `why` and is
shown as stored. Nothing is lost: `reason` is not touched."""

from django.db import migrations

BATCH = 500


def fill(apps, schema_editor):
    from digests.narrative.reasons import parse

    RunItem = apps.get_model("digests", "RunItem")
    last_id = 0
    while True:
        rows = list(
            RunItem.objects.filter(pk__gt=last_id, why=[])
            .order_by("pk")
            .values(
                "pk",
                "reason",
                "published_at",
                "run__subscription__timezone",
                "item__score_reasons",
            )[:BATCH]
        )
        if not rows:
            return
        last_id = rows[-1]["pk"]
        changed = []
        for row in rows:
            strengths = (row["item__score_reasons"] or {}).get("strengths", "")
            parts = parse(
                row["reason"],
                published_at=row["published_at"],
                zone=row["run__subscription__timezone"] or "",
                strengths=strengths if isinstance(strengths, str) else "",
            )
            if parts:
                changed.append(RunItem(pk=row["pk"], why=parts))
        RunItem.objects.bulk_update(changed, ["why"])


class Migration(migrations.Migration):
    dependencies = [("digests", "0017_runitem_why")]

    operations = [migrations.RunPython(fill, migrations.RunPython.noop)]
