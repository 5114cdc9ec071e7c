"""perceptrons tag train|predict|evaluate: part-of-speech tagging with the structured perceptron.

Training shows a progress bar with each epoch's mistakes and development accuracy; Ctrl-C ends
training and writes nothing.
"""

import os
from contextlib import contextmanager

import click

from perceptrons._core.errors import PerceptronsError
from perceptrons.cli import _distributed
from perceptrons.cli._common import check_label_text, interrupt_between_epochs, progress_bar
from perceptrons.cli._naming import note_input, note_path
from perceptrons.cli._options import COUNT, EPOCHS, JOBS, SEED, refuse_unused
from perceptrons.cli._paths import check_output_path
from perceptrons.io.conllu_format import COLUMNS

COLUMN_OPTION = click.option(
    "--column", type=click.Choice(sorted(COLUMNS)), default="upos", show_default=True, help="CoNLL-U tag column."
)
#: predict and evaluate read the column the model was trained on (recorded in its file) unless told
MODEL_COLUMN_OPTION = click.option(
    "--column",
    type=click.Choice(sorted(COLUMNS)),
    default=None,
    help="CoNLL-U tag column  [default: the one the model was trained on; upos for models that do not say]",
)


def _check_templates(ctx, param, value):
    """--templates / --edges: parsed when the option is read, so a typo fails before any data is
    (an empty --templates too; an empty --edges, the default, means none)."""
    if value or (value is not None and param.name != "edges"):
        from perceptrons._core.errors import PerceptronsError
        from perceptrons.structured.templates import parse_templates

        try:
            parse_templates(value)
        except PerceptronsError as exc:
            raise click.BadParameter(str(exc), ctx, param) from None
    return value


def _check_clusters(ctx, param, value):
    """--clusters: a packaged name or an existing file (its lines are checked when it is read)."""
    if value is not None:
        from perceptrons.structured.clusters import PACKAGED

        if value not in PACKAGED and not os.path.isfile(value):
            what = "an empty name" if not value else "is a directory" if os.path.isdir(value) else "no such file"
            raise click.BadParameter(
                f"{value + ': ' if value else ''}{what}; expected one of {sorted(PACKAGED)} or a Brown 'paths' file",
                ctx,
                param,
            )
        note_path(ctx, param, value)
    return value


@click.group(name="tag")
def command():
    """Part-of-speech tagging with the structured perceptron (Collins 2002)."""


@command.command(name="train")
@click.argument("train", type=click.Path(), callback=note_input)
@click.option(
    "--dev",
    "dev_path",
    type=click.Path(dir_okay=False),
    default=None,
    callback=note_path,
    help="Development .conllu: its accuracy picks the best epoch.",
)
@COLUMN_OPTION
@click.option("--epochs", type=EPOCHS, default=10, show_default=True)
@click.option("--decoder", type=click.Choice(["viterbi", "greedy"]), default="viterbi", show_default=True)
@click.option(
    "--templates",
    default="rich",
    show_default=True,
    callback=_check_templates,
    help="Feature templates: 'rich', 'basic', or comma-separated templates like 'l[0],l[-1]|l[0]'.",
)
@click.option(
    "--clusters",
    default=None,
    callback=_check_clusters,
    help="Brown word clusters: 'spacy-en' (needs perceptrons[clusters]) or a wcluster 'paths' file.",
)
@click.option("--tag-dict", is_flag=True, help="Fix the tags of frequent unambiguous words.")
@click.option("--second-order", is_flag=True, help="Weights for tag triples (Viterbi in O(n·T³)).")
@click.option(
    "--edges",
    default="",
    callback=_check_templates,
    help="Edge-feature templates (lexicalised transitions), e.g. 'l[-1],l[0]'.",
)
@click.option("--patience", type=COUNT, default=None, help="Stop after N epochs without a better dev score.")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Seed of the per-epoch shuffle.")
@click.option(
    "--stream",
    is_flag=True,
    help="Read TRAIN a chunk of sentences at a time (memory bounded by the chunk, not the file); "
    "implies no shuffle: sentences are visited in file order. Not with --dev or --patience.",
)
@click.option(
    "--chunk-sentences",
    type=COUNT,
    default=None,
    help="--stream: sentences read and trained on at a time  [default: 2000]",
)
@click.option(
    "--n-jobs",
    type=JOBS,
    default=None,
    help="Threads to train in (-1: every core); they exchange their updates every 1,024 sentences a "
    "thread, two threads, or every few, more (--mix-every). Not with --stream or --workers  [default: 1]",
)
@click.option(
    "--mix-every",
    type=COUNT,
    default=None,
    help="--n-jobs 2 or more, or --workers/--scheduler: sentences each thread or shard trains on between two "
    "mixes (the library's mix_every)  [default: 1,024 with two threads, 16/(N-1) with N threads of three or "
    "more; an epoch on a cluster]",
)
@click.option(
    "-o", "--output", required=True, type=click.Path(dir_okay=False), callback=note_path, help="Model file to write."
)
@_distributed.distributed_options
def train(
    train,
    dev_path,
    column,
    epochs,
    decoder,
    templates,
    clusters,
    tag_dict,
    second_order,
    edges,
    patience,
    seed,
    stream,
    chunk_sentences,
    n_jobs,
    mix_every,
    output,
    workers,
    scheduler,
    shards,
    mixing,
    rounds,
):
    """Train a tagger on TRAIN (.conllu) and save it to the model file -o FILE.

    With --workers N or --scheduler ADDRESS, train by iterative parameter mixing on a Dask
    cluster; when TRAIN is a directory or a glob of several files, each worker reads its own.
    """
    for path, hint in ((train, "TRAIN"), (dev_path, "--dev")):
        if path == "-":
            raise click.BadParameter("-: tag train reads files; standard input is not supported here", param_hint=hint)
    _check_stream_options(stream, chunk_sentences, dev_path, patience)
    refuse_unused(
        click.get_current_context(), {"seed": (not stream, "without --stream: a streamed fit keeps the file's order")}
    )
    cluster = _distributed.wanted(workers, scheduler, shards, mixing, rounds)
    if os.path.isdir(train) and not cluster:
        raise click.BadParameter(
            f"{train}: is a directory; a directory of CoNLL-U shards goes with --workers/--scheduler",
            param_hint="TRAIN",
        )
    if cluster and (stream or dev_path or patience is not None):
        raise click.UsageError("--workers/--scheduler do not take --stream, --dev or --patience")
    refuse_unused(
        click.get_current_context(),
        {
            "n_jobs": (
                n_jobs == 1 or not stream and not cluster,
                "to a fit in memory on this machine: not with --stream or --workers",
            )
        },
    )
    _distributed.check_mix_every(mix_every, "--mix-every", cluster, not stream and n_jobs not in (None, 1), rounds)
    clusters_file = clusters if clusters and os.path.isfile(clusters) else None  # not a packaged name
    from perceptrons.io.sources import shard_paths

    train_files = shard_paths(train) if cluster else [train]
    inputs = [("TRAIN", p) for p in train_files]
    check_output_path(output, [*inputs, ("--dev", dev_path), ("--clusters", clusters_file)])
    from perceptrons.io.conllu import read_conllu
    from perceptrons.persistence import save_model
    from perceptrons.structured.corpus import read_corpus  # the words numbered by the file's scan
    from perceptrons.structured.tagging import Tagger

    tagger = Tagger(
        templates=templates,
        clusters=clusters,
        decoder=decoder,
        max_epochs=epochs,
        shuffle=not stream,  # a streamed fit visits the sentences in file order
        patience=patience,
        tag_dict=tag_dict,
        edges=edges,
        markov_order=2 if second_order else 1,
        random_state=seed,
        n_jobs=n_jobs,
        mix_every=mix_every,
    )
    if cluster:
        from perceptrons import distributed

        if len(train_files) == 1:
            data, tags_arg = read_corpus(train, column), None
            summary = f"{len(data)} sentences, {data.tok.shape[0]} tokens"
        else:
            data, tags_arg = train_files, None
            summary = f"{train} ({len(train_files)} files, each read by a worker)"
        with _epoch_bar(tagger, epochs) as on_epoch, _distributed.scheduler_errors():
            distributed.fit_tagger(
                tagger,
                data,
                tags_arg,
                shards=shards,
                column=column,
                client=scheduler,
                n_workers=workers,
                mixing=mixing,
                rounds=rounds,
                callback=on_epoch,
            )
    elif stream:
        with _epoch_bar(tagger, epochs) as on_epoch:
            tagger.fit_stream(train, column, chunk_sentences or 2000, callback=on_epoch)
        summary = f"{train} read in chunks of {chunk_sentences or 2000} sentences"
    else:
        corpus = read_corpus(train, column)
        dev = read_conllu(dev_path, column, require_tags=True, keep_lines=False) if dev_path else None
        dev_arg = ([s.words for s in dev], [s.tags for s in dev]) if dev else None
        with _epoch_bar(tagger, epochs) as on_epoch:
            tagger.fit(corpus, dev=dev_arg, callback=on_epoch)
        summary = f"{len(corpus)} sentences, {corpus.tok.shape[0]} tokens"
    save_model(tagger, output, info={"tag_column": column})
    m = tagger.model_
    click.echo(f"model      Tagger -> {output}")
    if tagger.clusters_ is not None:
        click.echo(f"clusters   {len(tagger.clusters_)} words, {tagger.clusters_.source}")
    click.echo(f"train      {summary}, {len(m.classes_)} tags, {tagger.features_.n_features} features")
    click.echo(
        f"epochs     {m.n_epochs_} run, kept epoch {m.best_epoch_}; sentences wrong per epoch "
        f"{' '.join(map(str, m.mistakes_per_epoch_))}"
    )
    if cluster:
        for line in _distributed.summary(m):
            click.echo(line)
    if m.dev_scores_:
        click.echo(f"dev acc    {' '.join(f'{s:.4f}' for s in m.dev_scores_)}  (best {max(m.dev_scores_):.4f})")


def _check_stream_options(stream, chunk_sentences, dev_path, patience):
    """--stream's companions and conflicts, refused before any file is read."""
    if chunk_sentences is not None and not stream:
        raise click.UsageError("--chunk-sentences goes with --stream")
    if stream and dev_path:
        raise click.UsageError("--stream does not take --dev: a streamed fit keeps the last epoch")
    if stream and patience is not None:
        raise click.UsageError("--stream does not take --patience: it has no development set to stop on")
    if patience is not None and not dev_path:
        raise click.UsageError("--patience goes with --dev: it stops on the development set's score")


def _check_tag_sets(test, column, gold, tags):
    """Refuse a test file none of whose tags the model knows: the model was trained on another
    column (UPOS against XPOS) or another tag set, and every token would count as an error."""
    if gold and not gold & set(tags):
        seen = ", ".join(sorted(gold)[:5]) + (", ..." if len(gold) > 5 else "")
        known = ", ".join(tags[:5]) + (", ..." if len(tags) > 5 else "")
        raise click.BadParameter(
            f"{test}: none of its {column} tags ({seen}) is one of the model's {len(tags)} tags ({known}); "
            "expected the column and tag set the model was trained on",
            param_hint="TEST",
        )


@contextmanager
def _epoch_bar(tagger, epochs):
    """Yield the epoch callback: a progress bar of epochs, mistakes and dev accuracy; Ctrl-C
    ends training between two epochs (the model is then never written)."""
    # the bar appears with the first epoch: an error while reading features or clusters is then
    # the only thing on stderr
    bar = progress_bar(
        "epoch {task.completed}/{task.total}", "{task.fields[mistakes]} sentences wrong", "dev {task.fields[dev]}"
    )
    task = None

    def on_epoch(epoch, mistakes, elapsed):
        nonlocal task
        if task is None:
            bar.start()
            task = bar.add_task("train", total=epochs, mistakes="-", dev="-")
        scores = tagger.model_.dev_scores_
        bar.update(task, completed=epoch, mistakes=mistakes, dev=f"{scores[-1]:.4f}" if scores else "-")
        check()

    try:
        with interrupt_between_epochs() as check:
            yield on_epoch
    finally:
        if task is not None:
            bar.stop()


def _tags(tagger, sentences, confidence):
    """(tags, probabilities or None) of ``sentences``."""
    if confidence:
        return tagger.predict(sentences, return_conf=True)
    return tagger.predict(sentences), None


def _word_tag(word, tag, conf=None):
    """A token of ``tag predict``'s text output: word/TAG, or word/TAG/0.9731."""
    return f"{word}/{tag}" if conf is None else f"{word}/{tag}/{conf:.4f}"


def _read_raw(path):
    """Sentences of a file of raw text, cut into sentences and words as UD English EWT cuts
    them, a paragraph (lines up to a blank line) at a time: a sentence never runs on past a
    blank line, and the text held at once is one paragraph's."""
    from perceptrons.io.lines import utf8_lines
    from perceptrons.text.sentences import sentence_words

    out, paragraph = [], []

    def flush():
        out.extend(sentence_words("\n".join(paragraph)))
        paragraph.clear()

    for lineno, line in utf8_lines(path):
        if "\x00" in line:  # it would pass into a word and the output (CoNLL-U refuses it too)
            raise PerceptronsError(f"{path}:{lineno}: a NUL byte; expected text")
        if line.strip():
            paragraph.append(line)
        else:
            flush()
    flush()
    return out


def _read_plain(path):
    """Sentences of a plain-text file: one a line, split on whitespace."""
    from perceptrons.io.lines import utf8_lines

    sentences = []
    for lineno, line in utf8_lines(path):
        if "\x00" in line:  # it would pass into a word and the output (CoNLL-U refuses it too)
            raise PerceptronsError(f"{path}:{lineno}: a NUL byte; expected text")
        sentences.append(line.split())
    return sentences


def _check_pretrained(ctx, param, value):
    """--pretrained: a name of the package's table, never a path."""
    if value is not None:
        from perceptrons.pretrained.catalogue import lookup

        try:
            return lookup(value)
        except PerceptronsError as exc:
            raise click.BadParameter(str(exc), ctx, param) from None
    return value


PRETRAINED_OPTION = click.option(
    "--pretrained",
    metavar="NAME",
    default=None,
    callback=_check_pretrained,
    help="Use a model that ships inside the package instead of a MODEL file: 'en' (UD English EWT, UPOS).",
)


def _model_and_file(ctx, model, file, pretrained, name):
    """(MODEL or None, FILE): with --pretrained the one path given is the file to read.  Click
    cannot refuse a directory for the first argument, which names either one."""
    import os

    if pretrained is None:
        if model is None or file is None:
            raise click.UsageError(
                f"Missing argument '{'MODEL' if model is None else name}' (or give --pretrained NAME and {name})"
            )
        if os.path.isdir(model):
            raise click.BadParameter(f"File {model!r} is a directory.", param_hint="'MODEL'")
        return model, file
    if file is not None:
        raise click.UsageError(f"--pretrained {pretrained} is the model: give {name} alone, not a MODEL file too")
    if model is None:
        raise click.UsageError(f"Missing argument '{name}'")
    if os.path.isdir(model):
        raise click.BadParameter(f"File {model!r} is a directory.", param_hint=f"'{name}'")
    ctx.meta["perceptrons.input"] = model  # errors that name no file are about this one
    return None, model


def _load(model, column, pretrained=None):
    """(tagger, column): the model, and the tag column to read and write, which is the one the
    model was trained on unless ``--column`` says another (refused: its tags are of another set)."""
    from perceptrons.persistence import load_model

    if pretrained is not None:
        from perceptrons.pretrained.catalogue import model_file

        with model_file(pretrained) as path:
            tagger, info = load_model(path, expect="Tagger", with_info=True)
        model = f"--pretrained {pretrained}"
    else:
        tagger, info = load_model(model, expect="Tagger", with_info=True)
    check_label_text(tagger.model_.classes_, f"{model}: model tag", field=True)
    trained_on = info.get("tag_column")
    if column is not None and trained_on is not None and column != trained_on:
        raise click.BadParameter(
            f"{column}: the model was trained on the {trained_on} column; its tags would be written "
            f"as {column} tags (omit --column, or give a model trained on {column})",
            param_hint="--column",
        )
    return tagger, column or trained_on or "upos"


@command.command(name="predict")
@click.argument("model", required=False, metavar="[MODEL]", type=click.Path(), callback=note_path)
@click.argument("file", required=False, metavar="FILE", type=click.Path(dir_okay=False), callback=note_input)
@PRETRAINED_OPTION
@MODEL_COLUMN_OPTION
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["conllu", "text", "raw"]),
    default=None,
    help="Input format: CoNLL-U; text (a sentence a line, words apart by white space); or raw (any "
    "text, cut into sentences and words as UD English EWT cuts them).  By default .conllu and .conll "
    "files (any case) and files whose first line has the ten CoNLL-U columns are CoNLL-U; anything "
    "else is raw with --pretrained, text with a MODEL file.",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False),
    default=None,
    callback=note_path,
    help="Write here instead of stdout.",
)
@click.option(
    "--confidence",
    is_flag=True,
    help="Also write each tag's probability (as NLTK's return_conf): UPOSConf=0.9731 (XPOSConf for xpos) "
    "in the MISC column of CoNLL-U, word/TAG/0.9731 in text.",
)
@click.pass_context
def predict(ctx, model, file, pretrained, column, fmt, output, confidence):
    """Tag FILE with MODEL or --pretrained NAME: CoNLL-U in → CoNLL-U out (tag column filled), or
    text → word/TAG lines, a sentence a line."""
    model, file = _model_and_file(ctx, model, file, pretrained, "FILE")
    if file == "-":
        raise click.BadParameter("-: tag predict reads a file; standard input is not supported here", param_hint="FILE")
    import os

    if os.path.exists(file) and not os.path.isfile(file):  # read twice: a pipe is empty, a FIFO blocks, the second time
        raise click.BadParameter(f"{file}: a pipe or device; tag predict reads a regular file", param_hint="FILE")
    check_output_path(output, [("MODEL", model), ("FILE", file)] if model else [("FILE", file)], stream_ok=True)
    tagger, column = _load(model, column, pretrained)
    if fmt is None:
        from perceptrons.io.conllu import guess_format

        fmt = guess_format(file)
        if fmt == "text" and pretrained is not None:
            fmt = "raw"
    if fmt == "conllu":
        from perceptrons.io.conllu import read_conllu, retagged_text

        sents = read_conllu(file, column)
        tags, conf = _tags(tagger, [s.words for s in sents], confidence)
        with open(file, encoding="utf-8", newline="") as f:  # read and checked just above
            text = retagged_text(f.read(), sents, tags, column, conf)
    else:
        sents = _read_raw(file) if fmt == "raw" else _read_plain(file)
        tags, conf = _tags(tagger, sents, confidence)
        rows = zip(sents, tags, conf) if confidence else zip(sents, tags)
        text = "".join(" ".join(_word_tag(*token) for token in zip(*row)) + "\n" for row in rows)
    from perceptrons.io.atomic import atomic_output

    with atomic_output(output or "-") as out:
        out.write(text)


@command.command(name="evaluate")
@click.argument("model", required=False, metavar="[MODEL]", type=click.Path(), callback=note_path)
@click.argument("test", required=False, metavar="TEST", type=click.Path(dir_okay=False), callback=note_input)
@PRETRAINED_OPTION
@MODEL_COLUMN_OPTION
@click.pass_context
def evaluate(ctx, model, test, pretrained, column):
    """Token and sentence accuracy, known vs unknown words, and per-tag precision/recall/F1 on TEST
    (CoNLL-U), tagged by MODEL or --pretrained NAME."""
    model, test = _model_and_file(ctx, model, test, pretrained, "TEST")
    if not os.path.exists(test):
        raise click.BadParameter(f"{test}: no such file", param_hint="TEST")
    tagger, column = _load(model, column, pretrained)
    from perceptrons.io.conllu import read_conllu
    from perceptrons.structured.metrics import tagging_report

    sents = read_conllu(test, column, require_tags=True, keep_lines=False)
    _check_tag_sets(test, column, {t for s in sents for t in s.tags}, tagger.model_.classes_.tolist())
    words = [s.words for s in sents]
    r = tagging_report([s.tags for s in sents], tagger.predict(words), tagger.known(words))
    click.echo(f"tokens            {r['tokens']}   sentences {r['sentences']}")
    click.echo(f"token accuracy    {r['token_accuracy']:.4f}")
    click.echo(f"sentence accuracy {r['sentence_accuracy']:.4f}")
    for name, n in (("known", r["tokens"] - r["n_unknown"]), ("unknown", r["n_unknown"])):
        share = f"{r[name + '_accuracy']:.4f}" if n else "-     "  # no such token: no accuracy, not "nan"
        click.echo(f"{name + ' words':<17} {share}   ({n} tokens)")
    width = max(8, *(len(row[0]) for row in r["per_tag"]))  # morphological tags run long
    click.echo(f"{'tag':<{width}} {'precision':>9} {'recall':>9} {'f1':>9} {'support':>8}")
    for tag, p, rc, f1, n in r["per_tag"]:
        click.echo(f"{tag:<{width}} {p:>9.4f} {rc:>9.4f} {f1:>9.4f} {n:>8}")
