-- The anonymized patients: the rows of the release anonsql publishes from ref('patients')
-- (`anonsql dbt build` publishes it, then builds this model; the spec is in patients.yml).
{{ anonsql_dbt.release(ref('patients')) }}
