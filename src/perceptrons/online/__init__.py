"""The online family: linear learners that update example by example, beyond the perceptron.

Passive-aggressive (:class:`~perceptrons.online.passive_aggressive.PassiveAggressive`), the
second-order and confidence-weighted learners (AROW, CW, SCW, the second-order perceptron),
ALMA, ROMMA and Winnow.  Each is a rule behind the linear family's training protocol
(:mod:`perceptrons.online.learner`), so each trains in memory, by ``partial_fit``, from a
stream and by parameter mixing, and saves to a model file.  Import them from ``perceptrons``.
"""
