{#
  INFORMS 2005 as rows of persons for the identity-reserved benchmark (Wang et al. 2019, §5):
  one row per distinct (person, diagnosis) of the conditions table (the paper assumes a value
  appears at most once per individual), with the person's demographics.
#}
CREATE TABLE {{ target | qname }} AS
SELECT DISTINCT
  c."DUPERSID" AS person,
  d."DOBMM", d."DOBYY", d."RACEX", d."EDUCYEAR", d."marry", d."income",
  c."ICD9CODX" AS diagnosis
FROM {{ conditions | qname }} AS c
JOIN {{ demographics | qname }} AS d ON d."DUPERSID" = c."DUPERSID"
