"""AuthoringEvent now belongs to the authoring app (authoring 0001 takes it into its
state, on the same table): teams forgets it without dropping the table."""
from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("teams", "0003_item_target_speedup"),
        ("authoring", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="AuthoringEvent")],
            database_operations=[],
        ),
    ]
