"""Training in the threads of one process: S copies of a model's training state, trained on
chunks of each epoch in parallel (the compiled loops release the GIL) and mixed every few
thousand examples (:mod:`perceptrons.threads.rounds`); ``n_jobs`` on the estimators
(:mod:`perceptrons.threads.jobs`).  The families drive it through their training protocols:
:func:`perceptrons.linear.trainer.threaded_train` and
:func:`perceptrons.structured._sequence_trainer.threaded_train`.
"""
