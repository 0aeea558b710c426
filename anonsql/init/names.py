"""Common person names, for recognizing a column of names by its values (``anonsql init``).

Shipped, never downloaded. Sources (both US government works, in the public domain): the most
frequent given names of the US Social Security Administration's national baby-name data
(births 1950-2000, both sexes) and the most frequent surnames of the US Census Bureau's 2010
surname file, lower-cased, without those that are also common words, colours or places
(white, brown, green, jordan, virginia, ...). A short list on purpose: a column is taken for
names when most of its sampled values start with one of them
(:mod:`anonsql.init.identifiers`), which a column of anything else almost never does; names
outside the list (other countries) are missed, and the column is then still caught when its
values are near-unique.
"""

from __future__ import annotations

GIVEN_NAMES = (  # noqa: SIM905 (a list of words reads better as text)
    "james john robert michael william david richard joseph thomas charles christopher "
    "daniel matthew anthony donald steven paul andrew joshua kenneth kevin brian george "
    "timothy ronald edward jason jeffrey ryan jacob gary nicholas eric jonathan stephen "
    "larry justin scott brandon benjamin samuel gregory alexander patrick raymond jack "
    "dennis jerry tyler aaron jose adam nathan henry douglas zachary peter kyle walter "
    "ethan jeremy harold keith christian roger noah gerald carl terry sean arthur lawrence "
    "jesse dylan bryan joe billy bruce albert willie gabriel logan alan juan wayne roy "
    "ralph randy eugene vincent russell elijah louis bobby philip johnny mary patricia "
    "jennifer linda elizabeth barbara susan jessica sarah karen lisa nancy betty margaret "
    "sandra ashley kimberly emily donna michelle carol amanda dorothy melissa deborah "
    "stephanie rebecca sharon laura cynthia kathleen amy angela shirley anna brenda pamela "
    "emma nicole helen samantha katherine christine debra rachel carolyn janet catherine "
    "maria heather diane ruth julie olivia joyce kelly lauren christina joan evelyn judith "
    "megan andrea cheryl hannah jacqueline martha gloria teresa ann sara frances kathryn "
    "janice jean abigail alice judy sophia denise doris marilyn danielle beverly isabella "
    "theresa diana natalie brittany marie kayla alexis lori"
).split()

SURNAMES = (  # noqa: SIM905 (a list of words reads better as text)
    "smith johnson williams jones garcia miller davis rodriguez martinez hernandez lopez "
    "gonzalez wilson anderson thomas taylor moore martin lee perez thompson harris sanchez "
    "clark ramirez lewis robinson walker allen wright scott torres nguyen flores adams "
    "nelson baker rivera campbell mitchell carter roberts gomez phillips evans turner diaz "
    "parker cruz edwards collins reyes stewart morris morales murphy rogers gutierrez ortiz "
    "morgan cooper peterson bailey kelly howard ramos kim cox richardson watson brooks "
    "chavez james bennett mendoza ruiz hughes alvarez castillo sanders patel myers ross "
    "foster jimenez powell jenkins perry russell sullivan coleman butler henderson barnes "
    "gonzales fisher vasquez simmons romero patterson alexander hamilton graham reynolds "
    "griffin wallace moreno cole hayes bryant herrera gibson ellis tran medina aguilar "
    "stevens murray castro marshall owens harrison fernandez mcdonald kennedy vargas henry "
    "chen freeman webb tucker guzman burns crawford olson simpson gordon mendez silva shaw "
    "snyder dixon munoz hicks holmes palmer"
).split()

#: Both lists together: a value is name-like when its first word is one of them.
NAMES = tuple(dict.fromkeys((*GIVEN_NAMES, *SURNAMES)))
