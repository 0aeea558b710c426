"""1:M-Generalization (Gong et al., KBS 2017): SA fingerprints generalized into buckets by He &
Naughton's Partition, then person-level Mondrian."""

from anonsql.algorithms.one_to_many.algorithm import OneToMany, OneToManyOptions

__all__ = ["OneToMany", "OneToManyOptions"]
