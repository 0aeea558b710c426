"""The anonymized patients: anonsql publishes the release (verified) and dbt writes it here."""

import anonsql.dbt


def model(dbt, session):
    # dbt gives a Python model only the ref()/source() and config keys its code names
    return anonsql.dbt.model(dbt, session, dbt.ref("patients"), dbt.config.get("anonsql"))
