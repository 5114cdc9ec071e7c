"""
Tagging raw text with the packaged English tagger
=================================================

:func:`perceptrons.pos_tag` cuts raw text into sentences and words as UD English EWT cuts them
("don't" → "do", "n't"; the e-mail address and the time whole) and tags them with the tagger
that ships inside the package (:meth:`perceptrons.Tagger.pretrained`), 0.956 UPOS on EWT's
test set.  It still errs: in "the refuse permit" the second "refuse" is a noun modifier, which
the model, having seen "refuse" mostly as a verb, tags VERB.  The bars count the tags of the
paragraph.
"""

from collections import Counter

import matplotlib.pyplot as plt

from perceptrons import pos_tag_sents

text = (
    "They refuse to permit us to obtain the refuse permit. I don't think so, said Dr. Smith. "
    "Write to smith@example.com before 10:30 tomorrow, or call 713-853-3989 :)"
)
tagged = pos_tag_sents(text)
for sentence in tagged:
    print(" ".join(f"{word}/{tag}" for word, tag in sentence))

counts = Counter(tag for sentence in tagged for _, tag in sentence).most_common()
fig, ax = plt.subplots(figsize=(8, 3), constrained_layout=True)
ax.bar([tag for tag, _ in counts], [n for _, n in counts], color="#4a7")
ax.set_ylabel("words")
ax.set_title(f"UPOS tags of {sum(len(s) for s in tagged)} words in {len(tagged)} sentences")
plt.show()
