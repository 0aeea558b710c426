"""Dependency-preserving generalization (H. Gorla, "Dependency-Preserving Generalization for
Data Publishing", MSc thesis, McMaster University, 2019).

* :mod:`~anonsql.spec.dependencies`: functional dependencies (the spec's vocabulary), checked
  against the data by :mod:`~anonsql.resolve.dependencies`;
* :mod:`.encoding`: compact encoded records fetched from the engine;
* :mod:`.distance`: entropy penalty, value and tuple distances;
* :mod:`.loss`: dependency loss, utility and NCP of a clustering (NumPy);
* :mod:`~anonsql.metrics.dependency_loss`: dependency loss of a published release (SQL);
* :mod:`.pair_enum`, :mod:`.k_assemble`: the thesis's algorithms; :mod:`.k_member`,
  :mod:`.top_down`: its baselines (Byun et al. 2007; Xu et al. 2006);
* :mod:`.release`: decisions back into the engine;
* :mod:`.algorithm`: the four as algorithms of the run's spine.
"""
